// What a change of the test-mode document does to what @org/payments-mock exports: the typed
// controls (`SandboxControls`) and their types are written over the types the mock's generator
// makes from the document (src/generated/test-mode.ts), so both versions of the generated file go
// beside the controls' source and the compiler compares the exports, as for the API's packages.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { OpenApiDocument } from "@org/payments-spec";
import type { SpecDiff } from "@org/payments-spec/diff";
import { diffSurfaces } from "./diff-surfaces.ts";
import type { ExportRole, SurfaceVersion } from "./surface.ts";

export const MOCK_PACKAGE = "@org/payments-mock";

/**
 * The mock's exports made from the test-mode document, each judged by the side it is used on:
 * what the controls send (options, filters), what they resolve to, both, or (a generic alias,
 * whose instances the others cover) only its presence; the controls by their methods.
 */
const EXPORTS: Readonly<Record<string, ExportRole>> = {
  SandboxControls: "methods",
  SandboxTopic: "both",
  SandboxCollection: "both",
  SandboxStatus: "presence",
  SandboxResourceOf: "presence",
  SandboxResource: "response",
  SandboxEvent: "response",
  DeliveryAttempt: "response",
  SandboxClockReading: "response",
  SandboxRates: "response",
  QuoteVerdict: "response",
  DepositOptions: "request",
  FiatAddressOptions: "request",
  WebhookOptions: "request",
  EventFilter: "request",
};

/**
 * The controls with each generic method taken at its type parameters' constraints (`infer` does
 * that), so that two versions' methods compare: `setStatus<C>(collection: C, …)` as it accepts
 * and resolves to for every collection.
 */
const ERASED_CONTROLS = `import type { SandboxControls as Controls } from "./controls.ts";
type Erased<F> = F extends (...args: infer A) => infer R ? (...args: A) => R : F;
export type SandboxControls = { [K in keyof Controls]: Erased<Controls[K]> };
`;

type TestModeGenerator = { generateTypes(doc: unknown): Promise<string> };

/** The mock's typed controls and the test-mode generator live in the sandbox it bundles. */
function sandboxDir(): string {
  return path.dirname(createRequire(import.meta.url).resolve("@org/payments-sandbox/package.json"));
}

/** Every change from `base` to `head` (bundled test-mode documents) in what the mock exports. */
export function diffTestModePackage(
  base: OpenApiDocument,
  head: OpenApiDocument,
): Promise<SpecDiff> {
  return diffSurfaces(base, head, {
    owner: MOCK_PACKAGE,
    surfaceOf,
    rolesOf: () => (_, name) => EXPORTS[name] ?? "both",
  });
}

/**
 * The controls over one version's generated types: the sandbox's `controls.ts`, which puts together
 * each feature's `<feature>/controls.ts` (taken directly, not through the feature's index, which
 * reaches its routes and store too), and every module those reach, copied as they are, with the
 * version's `generated/test-mode.ts` in place of the committed one. The copies sit in a folder named
 * `generated` (under the sandbox's src/, so that openapi-fetch resolves from its node_modules): the
 * guard compares by type what generated code declares, and every export here depends on it.
 */
async function surfaceOf(doc: OpenApiDocument, version: string): Promise<SurfaceVersion> {
  const src = path.join(sandboxDir(), "src");
  const generator: TestModeGenerator = await import(
    pathToFileURL(path.join(sandboxDir(), "scripts/generate.ts")).href
  );
  const virtual = path.join(src, `.spec-diff-test-mode-${version}`, "generated");
  const controls = path.join(src, "controls.ts");
  const byFeature = (specifier: string) => {
    const feature = /^\.\/([\w-]+)\/index\.js$/.exec(specifier)?.[1];
    const own = feature && path.join(src, feature, "controls.ts");
    return own && existsSync(own) ? `./${feature}/controls.js` : specifier;
  };
  const files = new Map<string, string>();
  const copy = (file: string, text = readFileSync(file, "utf8")) =>
    files.set(path.join(virtual, path.relative(src, file)), text);
  const controlsText = readFileSync(controls, "utf8").replace(
    /from "([^"]+)"/g,
    (_, specifier: string) => `from "${byFeature(specifier)}"`,
  );
  copy(controls, controlsText);
  const reached = reachedFrom(
    [...controlsText.matchAll(RELATIVE_IMPORT)].map(([, specifier = ""]) =>
      path.resolve(src, specifier.replace(/\.js$/, ".ts")),
    ),
  );
  for (const file of reached) copy(file);
  files.set(
    path.join(virtual, "generated", "test-mode.ts"),
    await generator.generateTypes(structuredClone(doc)),
  );
  const entry = path.join(virtual, "guard-entry.ts");
  const exportsOf = Object.keys(EXPORTS)
    .filter((name) => name !== "SandboxControls")
    .map((name) => {
      const declaring = reached.find((file) =>
        new RegExp(`export (?:type|interface) ${name}\\b`).test(readFileSync(file, "utf8")),
      );
      if (!declaring) throw new Error(`test-mode surface: no controls module declares ${name}`);
      return `export type { ${name} } from "./${path.relative(src, declaring)}";`;
    });
  files.set(entry, `${exportsOf.join("\n")}\n${ERASED_CONTROLS}`);
  return { files, entries: { [MOCK_PACKAGE]: entry } };
}

const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g;

/** The TypeScript modules the `entries` reach by relative imports (`./x.js` is `./x.ts`), themselves included. */
function reachedFrom(entries: string[]): string[] {
  const reached = new Set<string>();
  const visit = (file: string) => {
    if (reached.has(file) || !existsSync(file)) return;
    reached.add(file);
    for (const [, specifier = ""] of readFileSync(file, "utf8").matchAll(RELATIVE_IMPORT)) {
      visit(path.resolve(path.dirname(file), specifier.replace(/\.js$/, ".ts")));
    }
  };
  for (const entry of entries) visit(entry);
  return [...reached];
}
