import { defineConfig } from "vitest/config";
import { timeLimits } from "../vitest.shared.js";

// The repository's own tests (`vitest run --root scripts`, in turbo's //#check:repo beside every
// package's tasks): the workspace's time limits, which only stop a test that hangs.
export default defineConfig({
  test: {
    ...timeLimits,
    globalSetup: ["test/packed-packages.ts"],
    // The files share their worker's modules (none changes a module's state or fakes timers):
    // one worker starts instead of one per file.
    isolate: false,
  },
});
