// What `npm run spec:diff` reports: the working documents against the last released ones, the
// API's (partner-payments.yaml) and the test mode's (test-mode.yaml), each on the wire and in what
// the packages export, as JSON and as the text it prints, and what `--check` makes of it.
import path from "node:path";
import readChangesets from "@changesets/read";
import { loadBundledSpec, loadSpec, specPath, testModeSpecPath } from "@org/payments-spec";
import { diffSpecs, type SpecChange } from "@org/payments-spec/diff";
import { diffPackages } from "./packages.ts";
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

type Changes = { breaking: SpecChange[]; additions: SpecChange[] };

/** `--json`'s shape: the API's changes, and the test mode's in a section of their own. */
export type SpecDiffReport = Changes & { testMode: Changes };

/** Every change from the base documents to the head ones (the released to the working ones by default). */
export async function specDiff(
  files: Partial<SpecDiffFiles> = {},
): Promise<{ report: SpecDiffReport; text: string }> {
  const paths = { ...SPEC_DIFF_FILES, ...files };
  const base = loadSpec(path.resolve(paths.base));
  const head = loadSpec(path.resolve(paths.head));
  const wire = diffSpecs(base, head);
  const packages = await diffPackages(base, head);
  // The test-mode document takes the API's enums by $ref: each version is read with the API
  // document next to it (the released one beside the released one).
  const testModeBase = loadBundledSpec(path.resolve(paths.testModeBase));
  const testModeHead = loadBundledSpec(path.resolve(paths.testModeHead));
  const testModeWire = diffSpecs(testModeBase, testModeHead);
  const testModePackage = await diffTestModePackage(testModeBase, testModeHead);
  const report: SpecDiffReport = {
    breaking: [...wire.breaking, ...packages.breaking],
    additions: [...wire.additions, ...packages.additions],
    testMode: {
      breaking: [...testModeWire.breaking, ...testModePackage.breaking],
      additions: [...testModeWire.additions, ...testModePackage.additions],
    },
  };
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
  return { report, text };
}

/**
 * `--check`'s verdict on a report: none when nothing breaks; when something does, it fails unless a
 * pending changeset asks for a major release.
 */
export async function checkSpecDiff(
  report: SpecDiffReport,
): Promise<{ failed: boolean; message: string } | undefined> {
  const breaking = report.breaking.length + report.testMode.breaking.length;
  if (breaking === 0) return undefined;
  const changesets = await readChangesets(REPOSITORY_ROOT);
  const major = changesets.find((changeset) => changeset.releases.some((r) => r.type === "major"));
  if (major) {
    return {
      failed: false,
      message: `\n${breaking} breaking change(s), covered by the major changeset "${major.id}".`,
    };
  }
  return {
    failed: true,
    message:
      `\n✖ ${breaking} breaking change(s) and no pending major changeset.\n` +
      "  Undo the breaking change, or record it: run `pnpm changeset`, choose major, and say what breaks.",
  };
}

function relative(file: string): string {
  return path.relative(REPOSITORY_ROOT, path.resolve(file));
}

function section(title: string, mark: string, changes: SpecChange[]): string[] {
  return [
    "",
    `${title} (${changes.length})${changes.length === 0 ? ": none" : ":"}`,
    ...changes.map((change) => `  ${mark} ${change.where}: ${change.message} [${change.rule}]`),
  ];
}
