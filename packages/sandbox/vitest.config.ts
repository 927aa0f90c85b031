import { defineConfig } from "vitest/config";
import { timeLimits } from "../../vitest.shared.js";

export default defineConfig({
  test: {
    ...timeLimits,
    include: ["test/**/*.test.ts"],
    // The files share their workers' modules (each test puts back the timers it fakes).
    isolate: false,
  },
});
