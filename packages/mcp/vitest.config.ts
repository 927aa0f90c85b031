import { defineConfig } from "vitest/config";
import { timeLimits } from "../../vitest.shared.js";

export default defineConfig({
  test: {
    ...timeLimits,
    // The files share their workers' modules (no test changes a module's state): the server, the
    // MCP client and the spec load once per worker rather than once per file.
    isolate: false,
    include: ["test/**/*.test.ts"],
  },
});
