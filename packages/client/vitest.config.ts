import { defineConfig } from "vitest/config";
import { timeLimits } from "../../vitest.shared.js";

export default defineConfig({
  test: {
    ...timeLimits,
    // The files share their workers' modules (no test changes a module's state): each module
    // loads once per worker rather than once per file.
    isolate: false,
    include: ["test/**/*.test.ts"],
    // test/collected-requests.test.ts forces garbage collections during calls.
    execArgv: ["--expose-gc"],
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
