import { defineConfig } from "vitest/config";
import { timeLimits } from "../../vitest.shared.js";

export default defineConfig({
  test: {
    ...timeLimits,
    // The files share their workers' modules (no test changes a module's state): each module
    // loads once per worker rather than once per file.
    isolate: false,
    // The type tests (test/*.test-d.ts) fail `lint`, whose tsc checks them with this tsconfig.
    include: ["test/**/*.test.ts"],
    // test/collected-requests.test.ts forces garbage collections during calls.
    execArgv: ["--expose-gc"],
  },
});
