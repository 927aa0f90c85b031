import { defineConfig } from "vitest/config";
import { timeLimits } from "../../vitest.shared.js";

export default defineConfig({
  test: {
    ...timeLimits,
    include: ["test/**/*.test.ts"],
    // test/collected-requests.test.ts forces garbage collections during calls.
    execArgv: ["--expose-gc"],
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
