import { defineConfig } from "vitest/config";
import { timeLimits } from "../vitest.shared.js";

// Installing tarballs, two Node binaries and type-checking take seconds, not milliseconds.
export default defineConfig({
  test: {
    ...timeLimits,
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
