import { defineConfig } from "vitest/config";
import { timeLimits } from "../../vitest.shared.js";

export default defineConfig({
  test: {
    ...timeLimits,
    include: ["test/**/*.test.ts"],
    // The files share their workers' modules (no test changes a module's state): TypeScript's
    // compiler and the documents load once per worker rather than once per file.
    isolate: false,
  },
});
