import { fileURLToPath } from "node:url";
import { specPath } from "@org/payments-spec";
import { defineConfig } from "tsdown";
import { typescriptGo } from "../../scripts/declarations.ts";

/**
 * The engine, the sandbox and the spec package (its diff, for payments-mock impact) are private
 * workspace packages: the published mock carries them.
 */
const deps = {
  alwaysBundle: [/^@org\/payments-(engine|sandbox|spec)(\/|$)/],
  // Prism's own dependency, which the engine's Prism adapter requires by name only in a browser
  // (scripts/build-browser.ts bundles it there); in Node it is required through Prism.
  neverBundle: ["@stoplight/json-schema-merge-allof"],
};

/**
 * The declarations, by TypeScript 7 (scripts/declarations.ts): they are made of the sandbox's and
 * the engine's sources too, reached through their declared entries rather than through
 * node_modules (TypeScript writes no declarations for a file it reached as a package's). The
 * tsconfig is in packages/, the folder above every source it compiles: the declarations' generator
 * takes the tsconfig's folder as the root of the files it writes.
 */
const declarations = {
  sourcemap: false,
  tsconfig: "../tsconfig.mock-declarations.json",
  ...typescriptGo,
} as const;

export default defineConfig([
  {
    entry: { index: "src/index.ts", msw: "src/msw/index.ts" },
    deps,
    format: ["esm", "cjs"],
    dts: declarations,
    // An import whose bindings are all unused goes: without this the declarations keep a bare
    // `import "@stoplight/prism-http"`, and a consumer's type check would then read Prism's types.
    treeshake: { moduleSideEffects: false },
    // import.meta.url locates the bundled spec; the shim makes it work in the CommonJS build too.
    shims: true,
    // The spec package is private, so the published mock carries its own copy of the spec.
    // test-mode.json is the test-mode document in one file, as GET /_sandbox/openapi.json serves it.
    copy: [
      { from: specPath, to: "dist" },
      {
        from: fileURLToPath(import.meta.resolve("@org/payments-sandbox/test-mode.json")),
        to: "dist",
      },
      // The fixture format's JSON Schema, published for editors, and the fixtures `trigger` runs.
      { from: "src/fixtures/fixture.schema.json", to: "dist" },
      { from: "src/fixtures/triggers", to: "dist" },
    ],
  },
  {
    // Its declarations only: scripts/build-browser.ts then writes dist/browser.mjs for a browser
    // (and browser.cjs, which requires it, for CommonJS).
    entry: { browser: "src/browser.ts" },
    deps,
    format: ["esm", "cjs"],
    dts: { ...declarations, emitDtsOnly: true },
    treeshake: { moduleSideEffects: false },
  },
  {
    entry: { cli: "src/cli.ts" },
    deps,
    format: ["esm"],
    dts: false,
  },
]);
