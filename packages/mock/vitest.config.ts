import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One mock for the whole run; its URL reaches the tests through inject("mockUrl").
    globalSetup: ["test/support/global-setup.ts"],
    // Generous: CLI tests start Prism in child processes on a loaded 2-core machine.
    testTimeout: 60_000,
    // Webhook delivery timeouts are tested under forced garbage collections (see deliveries.test.ts).
    execArgv: ["--expose-gc"],
  },
});
