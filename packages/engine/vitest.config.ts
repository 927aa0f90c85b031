import { defineConfig } from "vitest/config";
import { timeLimits } from "../../vitest.shared.js";

export default defineConfig({
  test: {
    ...timeLimits,
    include: ["test/**/*.test.ts"],
    // The files share their workers' modules (no test changes a module's state): Prism and the spec
    // load once per worker, not once per file.
    isolate: false,
  },
});
