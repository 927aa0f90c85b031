// The sandbox's lifecycles and default readiness profile, as its own code defines them (through
// @org/payments-sandbox's entry):
// the one place the docs build reads them from, so the diagrams and tables of the Test mode
// guides are made from what the sandbox runs. The package is TypeScript written for a bundler
// (`./x.js` naming `x.ts`), which Node does not resolve by itself: esbuild bundles what this
// takes from it into one module, which is then imported.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type * as Sandbox from "@org/payments-sandbox";
import { buildSync } from "esbuild";

export type { Lifecycle, Transition } from "@org/payments-sandbox";

const bundled = path.resolve(import.meta.dirname, "../build/sandbox-lifecycles.mjs");

mkdirSync(path.dirname(bundled), { recursive: true });
buildSync({
  stdin: {
    contents:
      'export { defaultChecklist, LIFECYCLES, TRANSACTION_STATES } from "@org/payments-sandbox";',
    resolveDir: import.meta.dirname,
    loader: "ts",
  },
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node24",
  outfile: bundled,
  logLevel: "silent",
  // The profile's schema checker (ajv) is CommonJS: its require calls need a require.
  banner: {
    js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
  },
});
const lifecycles: Pick<typeof Sandbox, "LIFECYCLES" | "TRANSACTION_STATES" | "defaultChecklist"> =
  await import(pathToFileURL(bundled).href);

export const { LIFECYCLES, TRANSACTION_STATES } = lifecycles;

/** The default readiness profile: its name, version and checks, each with how it is decided. */
export const READINESS_PROFILE = lifecycles.defaultChecklist();
