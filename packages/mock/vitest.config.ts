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
    projects: [
      {
        extends: true,
        test: {
          name: "mock",
          include: ["test/**/*.test.ts"],
          exclude: ["test/postgres/**"],
          // One mock for the whole run; its URL reaches the tests through inject("mockUrl").
          globalSetup: ["test/support/global-setup.ts"],
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
