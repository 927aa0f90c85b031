// `pnpm spec:diff`: what the working documents change against the last released ones: the API's
// (partner-payments.yaml) and the test mode's (test-mode.yaml), each in its own section.
// With --check it fails when a breaking change of either has no pending major changeset.
import path from "node:path";
import { parseArgs } from "node:util";
import readChangesets from "@changesets/read";
import { loadBundledSpec, loadSpec, specPath, testModeSpecPath } from "@org/payments-spec";
import { diffSpecs, type SpecChange } from "@org/payments-spec/diff";
import { diffPackages, diffTestModePackage } from "../src/index.ts";

// The repository's root: the released documents and the pending changesets are there.
const root = path.resolve(import.meta.dirname, "../../..");
const releasedPath = path.join(root, "openapi/released/partner-payments.yaml");
const releasedTestModePath = path.join(root, "openapi/released/test-mode.yaml");

const { values: options } = parseArgs({
  options: {
    check: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    base: { type: "string", default: releasedPath },
    head: { type: "string", default: specPath },
    "test-mode-base": { type: "string", default: releasedTestModePath },
    "test-mode-head": { type: "string", default: testModeSpecPath },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (options.help) {
  console.log(`Usage: pnpm spec:diff [--check] [--json] [--base <released spec>] [--head <spec>]
                     [--test-mode-base <released test-mode spec>] [--test-mode-head <test-mode spec>]

Compares openapi/partner-payments.yaml (or --head) with the last released spec (or --base), on the
wire and in what @org/payments-types and @org/payments-client export; then, in a section of its
own, openapi/test-mode.yaml (or --test-mode-head) with its last released version (or
--test-mode-base), on the wire and in what @org/payments-mock exports (its typed controls). Lists each breaking change and every other change, each with its
rule (openapi/README.md explains them). --json prints { breaking, additions, testMode: { breaking,
additions } } with each change's where, message, rule, operation and location. --check exits 1
when either document has a breaking change and no major changeset is pending (npm run changeset).`);
  process.exit(0);
}

const base = loadSpec(path.resolve(options.base));
const head = loadSpec(path.resolve(options.head));
const wire = diffSpecs(base, head);
const packages = await diffPackages(base, head);
// The test-mode document takes the API's enums by $ref: each version is read with the API
// document next to it (the released one beside the released one).
const testModeBase = loadBundledSpec(path.resolve(options["test-mode-base"]));
const testModeHead = loadBundledSpec(path.resolve(options["test-mode-head"]));
const testModeWire = diffSpecs(testModeBase, testModeHead);
const testModePackage = await diffTestModePackage(testModeBase, testModeHead);
const testMode = {
  breaking: [...testModeWire.breaking, ...testModePackage.breaking],
  additions: [...testModeWire.additions, ...testModePackage.additions],
};
const report = {
  breaking: [...wire.breaking, ...packages.breaking],
  additions: [...wire.additions, ...packages.additions],
  testMode,
};
const breakingCount = report.breaking.length + testMode.breaking.length;

if (options.json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const relative = (file: string) => path.relative(root, file);
  const heading = (
    title: string,
    from: string,
    baseDoc: typeof base,
    to: string,
    headDoc: typeof head,
  ) =>
    `${title}: ${relative(path.resolve(from))} (${baseDoc.info.version}) → ${relative(path.resolve(to))} (${headDoc.info.version})`;
  console.log(heading("Spec diff", options.base, base, options.head, head));
  printSection("Breaking changes", "✖", report.breaking);
  printSection("Other changes", "+", report.additions);
  console.log(
    `\n${heading("Test mode", options["test-mode-base"], testModeBase, options["test-mode-head"], testModeHead)}`,
  );
  printSection("Breaking changes", "✖", testMode.breaking);
  printSection("Other changes", "+", testMode.additions);
}

if (options.check && breakingCount > 0) {
  const changesets = await readChangesets(root);
  const major = changesets.find((changeset) => changeset.releases.some((r) => r.type === "major"));
  if (major) {
    console.log(
      `\n${breakingCount} breaking change(s), covered by the major changeset "${major.id}".`,
    );
  } else {
    console.error(
      `\n✖ ${breakingCount} breaking change(s) and no pending major changeset.\n` +
        "  Undo the breaking change, or record it: run `pnpm changeset`, choose major, and say what breaks.",
    );
    process.exit(1);
  }
}

function printSection(title: string, mark: string, changes: SpecChange[]): void {
  console.log(`\n${title} (${changes.length})${changes.length === 0 ? ": none" : ":"}`);
  for (const change of changes) {
    console.log(`  ${mark} ${change.where}: ${change.message} [${change.rule}]`);
  }
}
