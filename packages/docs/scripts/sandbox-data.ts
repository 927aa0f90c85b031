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

/** The sandbox's readiness checks of the default profile, each with how it is decided. */
export interface ReadinessCheck {
  id: string;
  title: string;
  how: string;
}

const readinessSource = path.resolve(import.meta.dirname, "../../sandbox/src/readiness/index.ts");
const readinessBundle = path.resolve(import.meta.dirname, "../build/sandbox-readiness.mjs");
buildSync({
  entryPoints: [readinessSource],
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node24",
  outfile: readinessBundle,
  logLevel: "silent",
  // ajv is CommonJS: its require calls need a require in the bundle.
  banner: {
    js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
  },
});
const readiness: typeof import("../../sandbox/src/readiness/index.ts") = await import(
  pathToFileURL(readinessBundle).href
);

/** The default profile's name, version and checks, decided on no evidence (for their `how`). */
export const READINESS_PROFILE = (() => {
  const profile = readiness.defaultProfile(readiness.PROFILE_CONTEXT);
  const { checks } = readiness.evaluate(profile, readiness.sandboxEvidence([], new Set(), []));
  return {
    name: profile.name,
    version: profile.version,
    checks: checks.map(({ id, title, how }): ReadinessCheck => ({ id, title, how })),
  };
})();
