import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { timeLimits } from "../../vitest.shared.js";

export default defineConfig({
  test: {
    ...timeLimits,
    // These files mostly wait (on Chromium, on the sandbox's webhook deliveries, on a guide's
    // Retry-After): at least two run at once, also on 2 cores (where vitest's default is one), so
    // that one file's waits overlap another's work.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The files share their workers' modules (no test changes a module's state): the mock, the
    // sandbox and the site's code load once per worker rather than once per file.
    isolate: false,
    // One Chromium for the run; each browser test file connects to it (support/browser-page.ts).
    globalSetup: ["test/support/chromium-server.ts"],
  },
});
