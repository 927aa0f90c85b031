import { fileURLToPath } from "node:url";
import { specPath } from "@org/payments-spec";
import { defineConfig } from "tsdown";

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
 * Their sources, through their declared entries rather than through node_modules: TypeScript
 * writes no declarations for a file it reached as a package's, and the mock's declarations are
 * made of theirs.
 */
const sourcePaths = Object.fromEntries(
  [
    "@org/payments-engine",
    "@org/payments-sandbox",
    "@org/payments-sandbox/browser",
    "@org/payments-sandbox/controls",
    "@org/payments-sandbox/store",
  ].map((entry) => [entry, [fileURLToPath(import.meta.resolve(entry))]]),
);

export default defineConfig([
  {
    entry: { index: "src/index.ts", msw: "src/msw/index.ts" },
    deps,
    format: ["esm", "cjs"],
    dts: { sourcemap: false, compilerOptions: { paths: sourcePaths } },
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
    dts: { sourcemap: false, compilerOptions: { paths: sourcePaths }, emitDtsOnly: true },
    treeshake: { moduleSideEffects: false },
  },
  {
    entry: { cli: "src/cli.ts" },
    deps,
    format: ["esm"],
    dts: false,
  },
]);
