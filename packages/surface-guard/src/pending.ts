// What each document would release now: its changes since its released baseline, and the version
// they call for (src/changelog.ts's rules). `npm run version-packages` asks it with the whole guard
// (the wire and the packages' exports); the docs site, which loads no compiler, with the wire alone.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { OpenApiDocument } from "@org/payments-spec";
import { diffSpecs } from "@org/payments-spec/diff";
import { parse } from "yaml";
import { type ApiChange, type ApiDocument, describeChanges } from "./api-changes.ts";
import { type ApiRelease, nextVersion, releaseOf } from "./changelog.ts";
import { readSpecFile } from "./spec-file.ts";

export const DOCUMENTS: readonly ApiDocument[] = ["partner-payments", "test-mode"];

// Only the version line inside the top-level `info` block, so that a file keeps its layout.
const INFO_VERSION = /^(info:\n(?:[ \t].*\n|\n)*? {2}version: )(\S+)$/m;

export const headFile = (root: string, document: ApiDocument): string =>
  path.join(root, "openapi", `${document}.yaml`);
export const baselineFile = (root: string, document: ApiDocument): string =>
  path.join(root, "openapi/released", `${document}.yaml`);

/** The document's text with its `info.version` set to `version`. */
export function withVersion(text: string, version: string, file: string): string {
  if (!INFO_VERSION.test(text)) throw new Error(`No info.version line found in ${file}`);
  return text.replace(INFO_VERSION, `$1${version}`);
}

/** How a document's changes are found between two of its versions (the test mode's bundled). */
export type ChangesOf = (
  document: ApiDocument,
  base: OpenApiDocument,
  head: OpenApiDocument,
) => Promise<ApiChange[]>;

/** The changes on the wire alone (no package's exports: no compiler loaded). */
const wireChanges: ChangesOf = (document, base, head) =>
  describeChanges(document, diffSpecs(base, head), base, head);

const load = (root: string, document: ApiDocument, file: string) =>
  readSpecFile(file, path.relative(root, file), document === "test-mode");

/**
 * The release each document would make now (dated `date`, or null while not released). A document
 * whose text is its baseline's, but for its version, makes none; one whose changes no consumer
 * feels (descriptions, examples) makes a patch.
 */
export async function pendingReleases(
  root: string,
  date: string | null,
  changesOf: ChangesOf = wireChanges,
): Promise<ApiRelease[]> {
  const releases: ApiRelease[] = [];
  for (const document of DOCUMENTS) {
    // Read as documents first: a file that is none is refused saying why (src/spec-file.ts).
    const baseDoc = load(root, document, baselineFile(root, document));
    const headDoc = load(root, document, headFile(root, document));
    const baseline = readFileSync(baselineFile(root, document), "utf8");
    const previous = String((parse(baseline) as { info: { version: string } }).info.version);
    const head = readFileSync(headFile(root, document), "utf8");
    const changes = await changesOf(document, baseDoc, headDoc);
    if (changes.length === 0 && withVersion(head, previous, document) === baseline) continue;
    const release = releaseOf({ document, version: previous, previous, date }, changes);
    releases.push({ ...release, version: nextVersion(previous, release.level) });
  }
  return releases;
}
