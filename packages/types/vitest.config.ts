import { defineConfig } from "vitest/config";
import { timeLimits } from "../../vitest.shared.js";

export default defineConfig({
  // The files share their workers' modules (no test changes a module's state): each module loads
  // once per worker rather than once per file.
  test: { ...timeLimits, isolate: false },
});
