// The sandbox's lifecycles and default readiness profile, as its own code defines them (through
// @org/payments-sandbox's entry):
// the one place the docs build reads them from, so the diagrams and tables of the Test mode
// guides are made from what the sandbox runs. The package is TypeScript written for a bundler
// (`./x.js` naming `x.ts`), which Node does not resolve by itself: esbuild bundles what this
// takes from it into one module, which is then imported.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type * as Sandbox from "@org/payments-sandbox";
import { buildSync } from "esbuild";

export type { Lifecycle, Transition } from "@org/payments-sandbox";

const bundled = path.resolve(import.meta.dirname, "../build/sandbox-lifecycles.mjs");
/** The files the bundle was made from (esbuild's inputs, and this file). */
const inputsOf = `${bundled}.inputs.json`;

/** Whether the bundle is there and newer than every file it was made from. */
function bundleIsCurrent(): boolean {
  try {
    const made = statSync(bundled).mtimeMs;
    const inputs = JSON.parse(readFileSync(inputsOf, "utf8")) as string[];
    return inputs.every((file) => statSync(file).mtimeMs < made);
  } catch {
    return false;
  }
}

/** Writes `contents` to `file` whole: a process importing the file meanwhile never reads a part. */
function writeWhole(file: string, contents: string | Uint8Array) {
  const staging = `${file}.${process.pid}.tmp`;
  writeFileSync(staging, contents);
  renameSync(staging, file);
}

// Every module that reads the sandbox's data imports this one (each test file, the build): the
// bundle is made again only when what it is made from changed.
if (!bundleIsCurrent()) {
  mkdirSync(path.dirname(bundled), { recursive: true });
  const { outputFiles, metafile } = buildSync({
    stdin: {
      contents:
        'export { defaultChecklist, LIFECYCLES, TRANSACTION_STATES } from "@org/payments-sandbox";',
      resolveDir: import.meta.dirname,
      loader: "ts",
    },
    absWorkingDir: import.meta.dirname,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node24",
    outfile: bundled,
    write: false,
    metafile: true,
    logLevel: "silent",
    // Prism, which the engine's adapter names by module for the in-page sandbox's bundle alone:
    // none of it is used here (the engine's modules are dropped as unused), and none is read.
    external: ["@stoplight/*"],
    // The profile's schema checker (ajv) is CommonJS: its require calls need a require.
    banner: {
      js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
    },
  });
  const inputs = Object.keys(metafile.inputs)
    .filter((input) => input !== "<stdin>")
    .map((input) => path.resolve(import.meta.dirname, input));
  writeWhole(inputsOf, JSON.stringify([...inputs, import.meta.filename]));
  const [output] = outputFiles;
  if (!output) throw new Error(`esbuild wrote no ${bundled}`);
  writeWhole(bundled, output.contents);
}
const lifecycles: Pick<typeof Sandbox, "LIFECYCLES" | "TRANSACTION_STATES" | "defaultChecklist"> =
  await import(pathToFileURL(bundled).href);

export const { LIFECYCLES, TRANSACTION_STATES } = lifecycles;

/** The default readiness profile: its name, version and checks, each with how it is decided. */
export const READINESS_PROFILE = lifecycles.defaultChecklist();
