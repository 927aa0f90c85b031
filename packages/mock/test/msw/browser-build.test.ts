// The browser builds (scripts/build-browser.ts): nothing of Node in them. Built again here, in
// memory, for esbuild's record of every module it read: none that is in a bundle imports a node:
// module, none of Node's stores (SQLite, Postgres) nor Faker is read at all, and a bundle imports
// nothing (the MSW handlers: only msw). The built files in dist/ import no node: module either.
import { readFileSync } from "node:fs";
import type { Metafile } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { BROWSER_BUILDS, buildBrowser } from "../../scripts/build-browser.js";

let built: Record<string, Metafile>;
beforeAll(async () => {
  built = await buildBrowser(false);
});

/** Node's stores and Prism's data generator: what the in-page sandbox must not even read. */
const NEVER_READ =
  /\/(pg|pg-[a-z-]+|pgpass|@faker-js|json-schema-faker)\/|\/store\/(sqlite|postgres)-store\.ts$/;

describe.each(BROWSER_BUILDS)("the browser build $file", ({ file }) => {
  const metafile = () => built[file] as Metafile;
  const output = () => Object.values(metafile().outputs)[0] as Metafile["outputs"][string];

  it("imports nothing but msw, the app's own", () => {
    const imported = output().imports.map((entry) => entry.path);
    expect(imported.filter((path) => path !== "msw")).toEqual([]);
  });

  it("holds no module that imports a node: module", () => {
    const inBundle = Object.keys(output().inputs).filter(
      (path) => (output().inputs[path]?.bytesInOutput ?? 0) > 0,
    );
    const nodeImports = inBundle.flatMap((path) =>
      (metafile().inputs[path]?.imports ?? [])
        .filter((entry) => entry.path.startsWith("node:"))
        .map((entry) => `${path} → ${entry.path}`),
    );
    expect(inBundle.length).toBeGreaterThan(100);
    expect(nodeImports).toEqual([]);
  });

  it("never reads SQLite's or Postgres's store, nor Faker", () => {
    expect(Object.keys(metafile().inputs).filter((path) => NEVER_READ.test(path))).toEqual([]);
  });

  it("is built so in dist/, where no node: module is imported", () => {
    const text = readFileSync(new URL(`../../dist/${file}`, import.meta.url), "utf8");
    expect(text.length).toBeGreaterThan(100_000);
    // An import, a dynamic import or a require of one (the engine names node:module as a string
    // only, for Node's process.getBuiltinModule, which a page has not).
    const nodeModules = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["'`]node:[a-z_/]+/g;
    expect(text.match(nodeModules) ?? []).toEqual([]);
  });
});
