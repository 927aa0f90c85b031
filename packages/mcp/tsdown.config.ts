import { specPath, testModeSpecPath } from "@org/payments-spec";
import { defineConfig } from "tsdown";
import { typescriptGo } from "../../scripts/declarations.ts";

// The spec package is private, so the published server carries its own copy of both documents:
// its resources, and what its tools were generated from.
const documents = [specPath, testModeSpecPath].map((from) => ({ from, to: "dist" }));

export default defineConfig([
  {
    entry: { index: "src/index.ts" },
    format: ["esm", "cjs"],
    dts: { sourcemap: false, tsconfig: "tsconfig.declarations.json", ...typescriptGo },
    platform: "node",
    // An import whose bindings are all unused goes: without this the declarations keep a bare
    // `import "@org/payments-client"`.
    treeshake: { moduleSideEffects: false },
    // import.meta.url locates the documents; the shim makes it work in the CommonJS build too.
    shims: true,
    copy: documents,
  },
  {
    entry: { cli: "src/cli.ts" },
    format: ["esm"],
    platform: "node",
    dts: false,
    // The command carries its dependencies in a few files: an MCP client starts it for every
    // session, and resolving and reading the SDK's and zod's hundreds of modules was a third of
    // its start-up (bench/, "MCP server").
    deps: { alwaysBundle: [/.*/] },
  },
]);
