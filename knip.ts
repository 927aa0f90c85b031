// knip: files, exports and dependencies nothing uses, across the workspace (`npm run lint` and
// `npm test` run it). Each package is read from its entries: its package.json `exports` and
// `bin`, its scripts, its vitest and tsdown configs (knip's plugins), and the entries below that
// only a command line or a bundler names. What is ignored says why.
import type { KnipConfig } from "knip";

const config: KnipConfig = {
  // Generated from the documents and never edited by hand: what they declare is the document's.
  ignore: ["**/src/generated/**"],
  // System commands, not packages: CPU pinning in the bench, apt and jq in the bootstrap scripts,
  // mkfifo in the mock's CLI tests.
  ignoreBinaries: ["taskset", "apt-get", "jq", "mkfifo"],
  workspaces: {
    ".": {
      // The repository's tooling, run by node (bootstrap.mjs and the package.json scripts), and its
      // tests with their globalSetup (scripts/vitest.config.ts, which knip's plugin does not read).
      entry: ["scripts/*.{ts,mjs}", "scripts/test/*.test.ts", "scripts/test/packed-packages.ts"],
      project: ["scripts/**/*.{ts,mjs}"],
    },
    openapi: {
      // The generators' shared formatter (src/codegen.ts) runs biome's bin, found by its path.
      ignoreDependencies: ["@biomejs/biome"],
    },
    "packages/client": {
      // The type tests, which `lint` type-checks.
      entry: ["test/**/*.test-d.ts"],
    },
    "packages/types": {
      // A consumer project the tests type-check and run as it is, on each module system.
      ignore: ["test/fixtures/**"],
    },
    "packages/mock": {
      // The MSW handlers' browser entry, which scripts/build-browser.ts bundles by its path.
      entry: ["src/msw/msw-browser.ts"],
      // The published mock bundles the engine and the sandbox: their runtime dependencies (and
      // pg's types, for its declarations) are the mock's to list, though its own source imports
      // none of them.
      ignoreDependencies: [
        "@noble/hashes",
        "content-type",
        "decimal.js",
        // Seen used once the packages are generated and built (knip then hints to remove it), but
        // not on a fresh clone, where check:repo runs first.
        "openapi-fetch",
        "pg",
        "statuses",
        "undici",
        "uri-template-lite",
        "@types/pg",
        // msw 2 under an npm alias, which vitest.config.ts puts in `msw`'s place for one project.
        "msw-2",
      ],
    },
    "packages/engine": {
      // Prism's own dependency, which its adapter requires by name in a browser only, where the
      // mock's browser build resolves it as Prism does; in Node it is required through Prism.
      ignoreDependencies: ["@stoplight/json-schema-merge-allof"],
    },
    "packages/docs": {
      // The commands (build, serve, dev, serve-all), run by node; the console, the readiness
      // page's script and the in-page sandbox's two (its page side, its service worker), each
      // bundled by esbuild from its file.
      entry: [
        "scripts/*.ts",
        "console/main.ts",
        "console/readiness.ts",
        "console/in-page-sandbox.ts",
        "console/sandbox-worker.ts",
      ],
      // The samples are type-checked against the client (tsconfig.samples.json), not imported;
      // MSW's interceptors are imported by a guide's test file, which the guides' tests run.
      ignoreDependencies: ["@org/payments-client", "@mswjs/interceptors"],
    },
    "packages/surface-guard": {
      // Its commands, run by node from the root's scripts (spec:diff, spec:changelog,
      // version-packages).
      entry: ["scripts/*.ts"],
      // The guarded packages: their generators and sources are read by path from their folders,
      // found through these dependencies, which also order turbo's graph (see its README).
      ignoreDependencies: [
        "@org/payments-client",
        "@org/payments-mock",
        "@org/payments-sandbox",
        "@org/payments-types",
      ],
    },
    bench: {
      // The profile's script (`npm run bench` is src/run.ts, from package.json); the consumer
      // programs the type-check figure compiles are generated.
      entry: ["scripts/*.ts"],
      ignore: ["src/generated/**"],
      // The peers and the MCP server the figures start as processes, from their installed bins.
      ignoreDependencies: ["@mockoon/cli", "json-server", "@org/payments-mcp"],
    },
    e2e: {
      // Copied into the consumer projects the tests install the packed packages in.
      ignore: ["fixtures/**"],
      // Packed and installed in those projects, never imported from here.
      ignoreDependencies: ["@org/payments-mcp", "@org/payments-types"],
    },
  },
};

export default config;
