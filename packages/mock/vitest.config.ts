import { defineConfig } from "vitest/config";
import { timeLimits } from "../../vitest.shared.js";

export default defineConfig({
  test: {
    ...timeLimits,
    include: ["test/**/*.test.ts"],
    // One mock for the whole run; its URL reaches the tests through inject("mockUrl").
    globalSetup: ["test/support/global-setup.ts"],
    // Webhook delivery timeouts are tested under forced garbage collections (see deliveries.test.ts).
    execArgv: ["--expose-gc"],
  },
});
