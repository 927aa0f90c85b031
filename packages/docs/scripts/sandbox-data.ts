// The sandbox's lifecycles, as its own code defines them: the one place the docs build reads them
// from (the sandbox is a private part of @org/payments-mock and exports no such data), so the
// diagrams and tables of the Test mode guides are made from what the sandbox runs. The module
// and what it imports are TypeScript written for a bundler (`./x.js` naming `x.ts`), which Node
// does not resolve by itself: esbuild bundles it into one module, which is then imported.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildSync } from "esbuild";
import type * as Lifecycles from "../../sandbox/src/lifecycle/lifecycles.ts";

export type { Lifecycle, Transition } from "../../sandbox/src/lifecycle/lifecycles.ts";

const source = path.resolve(import.meta.dirname, "../../sandbox/src/lifecycle/lifecycles.ts");
const bundled = path.resolve(import.meta.dirname, "../build/sandbox-lifecycles.mjs");

mkdirSync(path.dirname(bundled), { recursive: true });
buildSync({
  entryPoints: [source],
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node24",
  outfile: bundled,
  logLevel: "silent",
});
const lifecycles: typeof Lifecycles = await import(pathToFileURL(bundled).href);

export const { LIFECYCLES, TRANSACTION_STATES } = lifecycles;
