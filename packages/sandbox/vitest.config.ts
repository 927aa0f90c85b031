import { defineConfig } from "vitest/config";
import { timeLimits } from "../../vitest.shared.js";

/**
 * The store tests (test/stores) and the sandbox on HTTP (test/http) run once against each store
 * (javascript: the in-page sandbox's, store/memory-store.ts); test/memory on memory only,
 * test/postgres on Postgres only.
 */
const stores = ["memory", "sqlite", "postgres", "javascript"] as const;

export default defineConfig({
  test: {
    ...timeLimits,
    // Webhook delivery timeouts are tested under forced garbage collections (see deliveries.test.ts).
    execArgv: ["--expose-gc"],
    // The files share their workers' modules (each test puts back the timers it fakes).
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: "sandbox",
          include: ["test/**/*.test.ts"],
          exclude: ["test/stores/**", "test/http/**", "test/memory/**", "test/postgres/**"],
        },
      },
      ...stores.map((store) => ({
        extends: true as const,
        test: {
          name: `store-${store}`,
          include: [
            "test/stores/**/*.test.ts",
            "test/http/**/*.test.ts",
            ...(store === "memory" ? ["test/memory/**/*.test.ts"] : []),
            ...(store === "postgres" ? ["test/postgres/**/*.test.ts"] : []),
          ],
          provide: { sandboxStore: store },
          globalSetup: store === "postgres" ? ["test/support/postgres-setup.ts"] : [],
        },
      })),
    ],
  },
});
