import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { timeLimits } from "../../vitest.shared.js";

// The sandbox's behaviour is tested in packages/sandbox; these are the mock's own: its CLI,
// startMock, the proxy, the stateless engine, and the mock's CLIs sharing one Postgres.
export default defineConfig({
  test: {
    ...timeLimits,
    // The files share their workers' modules rather than each importing Prism, the engine and the
    // sandbox again (a third of the run's time): no test changes a module's state, and each stops
    // what it starts and puts back the timers it fakes.
    isolate: false,
    // Its CLI tests mostly wait (on the process they start, on a sandbox's deliveries): two files
    // run at once, also on 2 cores (where vitest's default is one), so that one's waits overlap
    // another's work; the run is otherwise the longest of the suite, one file after another.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: "mock",
          include: ["test/**/*.test.ts"],
          exclude: ["test/postgres/**", "test/msw-2/**"],
          // One mock for the whole run; its URL reaches the tests through inject("mockUrl").
          globalSetup: ["test/support/global-setup.ts"],
        },
      },
      {
        extends: true,
        // The oldest major of the msw peer range: `msw` (the handlers' `http`, the tests'
        // setupServer) is msw 2 here, for the same test of the handlers as with msw 3.
        resolve: { alias: { msw: "msw-2" } },
        test: {
          name: "mock-msw2",
          include: [
            "test/msw/sandbox-handlers.test.ts",
            "test/msw/base-url-pattern-characters.test.ts",
            "test/msw-2/**/*.test.ts",
          ],
        },
      },
      {
        extends: true,
        test: {
          name: "mock-postgres",
          // Built CLIs sharing one database of the run's Postgres.
          include: ["test/postgres/**/*.test.ts"],
          globalSetup: ["test/support/postgres-setup.ts"],
        },
      },
    ],
  },
});
