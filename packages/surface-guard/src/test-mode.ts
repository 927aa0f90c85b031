// What a change of the test-mode document does to what @org/payments-mock exports: the typed
// controls (`SandboxControls`) and their types are written over the types the mock's generator
// makes from the document (src/generated/test-mode.ts), so both versions of the generated file go
// beside the controls' source and the compiler compares the exports, as for the API's packages.
import { readFileSync } from "node:fs";
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
const ERASED_CONTROLS = `import type { SandboxControls as Controls } from "./sandbox/controls.ts";
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
 * The controls over one version's generated types. The copies sit in a folder named `generated`
 * (under the sandbox's src/, so that openapi-fetch resolves from its node_modules): the guard compares
 * by type what generated code declares, and every export here depends on it.
 */
async function surfaceOf(doc: OpenApiDocument, version: string): Promise<SurfaceVersion> {
  const src = path.join(sandboxDir(), "src");
  const generator: TestModeGenerator = await import(
    pathToFileURL(path.join(sandboxDir(), "scripts/generate.ts")).href
  );
  const virtual = path.join(src, `.spec-diff-test-mode-${version}`, "generated");
  const entry = path.join(virtual, "index.ts");
  const names = Object.keys(EXPORTS)
    .filter((name) => name !== "SandboxControls")
    .join(", ");
  const files = new Map([
    ...[...controlsSources(src)].map(([file, text]) => [path.join(virtual, "sandbox", file), text]),
    [
      path.join(virtual, "sandbox", "generated", "test-mode.ts"),
      await generator.generateTypes(structuredClone(doc)),
    ],
    [entry, `export type { ${names} } from "./sandbox/controls.ts";\n${ERASED_CONTROLS}`],
  ] as [string, string][]);
  return { files, entries: { [MOCK_PACKAGE]: entry } };
}

/**
 * The typed controls' sources by their path in the sandbox's src/: `controls.ts` and every file it
 * imports, in turn, but the generated types (each version brings its own).
 */
function controlsSources(src: string): Map<string, string> {
  const sources = new Map<string, string>();
  const generated = path.join("generated", "test-mode.ts");
  const visit = (file: string) => {
    if (sources.has(file) || file === generated) return;
    const text = readFileSync(path.join(src, file), "utf8");
    sources.set(file, text);
    for (const [, specifier = ""] of text.matchAll(/\bfrom\s*"(\.[^"]+)"/g)) {
      visit(path.join(path.dirname(file), specifier.replace(/\.js$/, ".ts")));
    }
  };
  visit("controls.ts");
  return sources;
}
