// What `npm run spec:diff` reports: the working documents against the last released ones, the
// API's (partner-payments.yaml) and the test mode's (test-mode.yaml), each on the wire and in what
// the packages export, as JSON and as the text it prints, and what `--check` makes of it.
import path from "node:path";
import { type OpenApiDocument, specPath, testModeSpecPath } from "@org/payments-spec";
import { diffSpecs, type SpecChange, type SpecDiff } from "@org/payments-spec/diff";
import { type ApiChange, type ApiDocument, describeChanges } from "./api-changes.ts";
import { type CheckVerdict, checkChangesets } from "./changeset-check.ts";
import { diffPackages } from "./packages.ts";
import { readSpecFile } from "./spec-file.ts";
import { diffTestModePackage } from "./test-mode.ts";

/** The repository's root: the released documents and the pending changesets are there. */
const REPOSITORY_ROOT = path.resolve(import.meta.dirname, "../../..");

/** The documents compared, each a path (relative ones from the working directory). */
export type SpecDiffFiles = {
  base: string;
  head: string;
  testModeBase: string;
  testModeHead: string;
};

/** The released documents against the working ones. */
export const SPEC_DIFF_FILES: Readonly<SpecDiffFiles> = {
  base: path.join(REPOSITORY_ROOT, "openapi/released/partner-payments.yaml"),
  head: specPath,
  testModeBase: path.join(REPOSITORY_ROOT, "openapi/released/test-mode.yaml"),
  testModeHead: testModeSpecPath,
};

/** `--json`'s shape: the API's changes, and the test mode's in a section of their own. */
export type SpecDiffReport = SpecDiff & { testMode: SpecDiff };

/** Every change from the base documents to the head ones (the released to the working ones by default). */
export async function specDiff(
  files: Partial<SpecDiffFiles> = {},
): Promise<{ report: SpecDiffReport; text: string; changes: ApiChange[] }> {
  const paths = { ...SPEC_DIFF_FILES, ...files };
  // Each named as in the heading, or in full when it is outside the repository.
  const read = (file: string, bundled = false) =>
    readSpecFile(path.resolve(file), shown(file), bundled);
  const base = read(paths.base);
  const head = read(paths.head);
  // The test-mode document takes the API's enums by $ref: each version is read with the API
  // document next to it (the released one beside the released one).
  const testModeBase = read(paths.testModeBase, true);
  const testModeHead = read(paths.testModeHead, true);
  const api = await diffDocument("partner-payments", base, head);
  const testMode = await diffDocument("test-mode", testModeBase, testModeHead);
  const report: SpecDiffReport = { ...api.diff, testMode: testMode.diff };
  const changes = [...api.changes, ...testMode.changes];
  const heading = (title: string, from: string, to: string, versions: [string, string]) =>
    `${title}: ${relative(from)} (${versions[0]}) → ${relative(to)} (${versions[1]})`;
  const text = [
    heading("Spec diff", paths.base, paths.head, [base.info.version, head.info.version]),
    ...section("Breaking changes", "✖", report.breaking),
    ...section("Other changes", "+", report.additions),
    "",
    heading("Test mode", paths.testModeBase, paths.testModeHead, [
      testModeBase.info.version,
      testModeHead.info.version,
    ]),
    ...section("Breaking changes", "✖", report.testMode.breaking),
    ...section("Other changes", "+", report.testMode.additions),
  ].join("\n");
  return { report, text, changes };
}

/**
 * `--check`'s verdict on the changes `specDiff` found: none when nothing needs a changeset;
 * otherwise it fails unless each change has a changeset added with it, on each published package it
 * reaches, at the level it needs (src/changeset-check.ts). A change the repository's history does
 * not hold (of other files compared, or not committed) is the working tree's.
 */
export function checkSpecDiff(changes: ApiChange[]): Promise<CheckVerdict | undefined> {
  return checkChangesets(REPOSITORY_ROOT, changes);
}

/**
 * One document's changes from `base` to `head` (the test mode's bundled): on the wire and in what
 * the packages made from it export, as the guard reports them and as consumers feel them.
 */
export async function diffDocument(
  document: ApiDocument,
  base: OpenApiDocument,
  head: OpenApiDocument,
): Promise<{ diff: SpecDiff; changes: ApiChange[] }> {
  const wire = diffSpecs(base, head);
  const packages =
    document === "test-mode"
      ? await diffTestModePackage(base, head)
      : await diffPackages(base, head);
  const diff = {
    breaking: [...wire.breaking, ...packages.breaking],
    additions: [...wire.additions, ...packages.additions],
  };
  return { diff, changes: await describeChanges(document, diff, base, head) };
}

function relative(file: string): string {
  return path.relative(REPOSITORY_ROOT, path.resolve(file));
}

function shown(file: string): string {
  return relative(file).startsWith("..") ? path.resolve(file) : relative(file);
}

function section(title: string, mark: string, changes: SpecChange[]): string[] {
  return [
    "",
    `${title} (${changes.length})${changes.length === 0 ? ": none" : ":"}`,
    ...changes.map((change) => `  ${mark} ${change.where}: ${change.message} [${change.rule}]`),
  ];
}
