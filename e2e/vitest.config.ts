import { defineConfig } from "vitest/config";
import { timeLimits } from "../vitest.shared.js";

// Installing tarballs, Node binaries and runtimes, and type-checking take seconds, not milliseconds.
export default defineConfig({
  test: {
    ...timeLimits,
    // The packed packages, installed once into a fresh npm project with the tools beside it.
    globalSetup: ["test/support/consumer-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 600_000,
    // The files run one after another in one worker that keeps its modules (no test changes a
    // module's state): the packages and tools they import load once, not once per file.
    isolate: false,
  },
});
