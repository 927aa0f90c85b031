// After tsdown: the browser builds, by esbuild, each one ESM file in dist/:
// - browser.mjs, the in-page sandbox (`@org/payments-mock/browser`): one file with no import, for a
//   page or a service worker (the docs site loads it as it is);
// - msw.browser.mjs, the MSW handlers on it (`@org/payments-mock/msw` under the `browser`
//   condition, which Vite and esbuild resolve for a browser app): it imports only `msw`, the app's.
// No node: module is in either: the sandbox's browser entry reaches none (test/msw/browser-build.test.ts).
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type BuildOptions, build, type Metafile, type Plugin } from "esbuild";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const src = fileURLToPath(new URL("../src/", import.meta.url));

/** The builds: their entry, their file in dist/ and what they leave to the app. */
export const BROWSER_BUILDS = [
  { entry: "browser.ts", file: "browser.mjs", external: [] as string[] },
  { entry: "msw/msw-browser.ts", file: "msw.browser.mjs", external: ["msw", "msw/*"] },
] as const;

/**
 * Packages Prism requires that the in-page sandbox leaves out, each a module whose use throws:
 * its dynamic data generator (Faker with all its locales, json-schema-faker, seedrandom: only for
 * --dynamic, which the sandbox never asks) and its forwarder's Node modules (the sandbox never
 * forwards; Prism's logger loads the forwarder for its body serialiser alone).
 */
const LEFT_OUT =
  /^(@faker-js\/faker|json-schema-faker|seedrandom|http-proxy-agent|https-proxy-agent|url|path)$/;

const leftOut: Plugin = {
  name: "left-out-of-the-browser",
  setup(esbuild) {
    esbuild.onResolve({ filter: LEFT_OUT }, ({ path: name }) => ({
      path: name,
      namespace: "left-out",
    }));
    esbuild.onLoad({ filter: /.*/, namespace: "left-out" }, ({ path: name }) => {
      const thrower = `() => { throw new Error(${JSON.stringify(`${name} is not in the in-page sandbox (no dynamic data, no forwarding)`)}); }`;
      // json-schema-faker is configured as Prism's generator loads, and used only to generate.
      const contents =
        name === "json-schema-faker"
          ? `exports.JSONSchemaFaker = { extend() {}, option() {}, generate: ${thrower} };`
          : `module.exports = new Proxy({}, { get: (_, key) => key === "__esModule" ? false : ${thrower} });`;
      return { contents, loader: "js" };
    });
  },
};

/**
 * One lodash: lodash/fp (required by one of Prism's dependencies) wraps lodash.min.js, a second
 * copy of what Prism's `require("lodash")` loads; it wraps that one instead.
 */
const oneLodash: Plugin = {
  name: "one-lodash",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\/lodash\.min$/ }, ({ importer }) =>
      path.basename(path.dirname(importer)) === "lodash"
        ? { path: path.join(path.dirname(importer), "lodash.js") }
        : undefined,
    );
  },
};

/**
 * jsonc-parser's ES module build: its main, which a `require` reaches, is a UMD build that
 * requires its own files at run time, which a bundle cannot answer.
 */
const jsoncAsModule: Plugin = {
  name: "jsonc-parser-as-module",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^jsonc-parser$/ }, async ({ resolveDir }) => {
      const found = await esbuild.resolve("jsonc-parser/package.json", {
        resolveDir,
        kind: "require-call",
      });
      return { path: path.join(path.dirname(found.path), "lib/esm/main.js") };
    });
  },
};

/** Prism's own dependencies, resolved as Prism resolves them (the engine's adapter requires one). */
const prismDependencies = path.resolve(
  path.dirname(
    createRequire(import.meta.resolve("@org/payments-engine")).resolve(
      "@stoplight/prism-http/package.json",
    ),
  ),
  "../..",
);

export function browserBuildOptions(build: (typeof BROWSER_BUILDS)[number]): BuildOptions {
  return {
    entryPoints: [path.join(src, build.entry)],
    outfile: path.join(dist, build.file),
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    metafile: true,
    legalComments: "none",
    logLevel: "warning",
    // Modules the sandbox's browser graph still names but never runs (Node's stores, server and
    // files) are dropped as unused; one that stays would be an import the test finds.
    external: ["node:*", ...build.external],
    nodePaths: [prismDependencies],
    plugins: [leftOut, oneLodash, jsoncAsModule],
  };
}

/** Builds both; resolves to each file's metafile, by its name in dist/. */
export async function buildBrowser(write = true): Promise<Record<string, Metafile>> {
  const built: Record<string, Metafile> = {};
  for (const each of BROWSER_BUILDS) {
    const result = await build({ ...browserBuildOptions(each), write });
    built[each.file] = result.metafile as Metafile;
  }
  // `require("@org/payments-mock/browser")`: the ES module itself (Node requires ES modules).
  if (write)
    writeFileSync(path.join(dist, "browser.cjs"), 'module.exports = require("./browser.mjs");\n');
  return built;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await buildBrowser();
