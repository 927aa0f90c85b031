import { defineConfig } from "vitest/config";
import { timeLimits } from "../../vitest.shared.js";

/** The sandbox tests run once against each store (see test/support/sandbox.ts). */
const sandboxStores = ["memory", "sqlite", "postgres"] as const;

export default defineConfig({
  test: {
    ...timeLimits,
    // Webhook delivery timeouts are tested under forced garbage collections (see deliveries.test.ts).
    execArgv: ["--expose-gc"],
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
          exclude: ["test/sandbox/**", "test/memory/**", "test/sqlite/**", "test/postgres/**"],
          // One mock for the whole run; its URL reaches the tests through inject("mockUrl").
          globalSetup: ["test/support/global-setup.ts"],
        },
      },
      ...sandboxStores.map((store) => ({
        extends: true as const,
        test: {
          name: `sandbox-${store}`,
          // Each store's own tests (test/memory, test/sqlite, test/postgres) run in its project only.
          include: ["test/sandbox/**/*.test.ts", `test/${store}/**/*.test.ts`],
          provide: { sandboxStore: store },
          globalSetup: store === "postgres" ? ["test/support/postgres-setup.ts"] : [],
        },
      })),
    ],
  },
});
