import { defineConfig } from "vitest/config";

// Installing tarballs, two Node binaries and type-checking take seconds, not milliseconds.
export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
