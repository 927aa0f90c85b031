// `pnpm spec:diff`: what the working spec changes against the last released one.
// With --check it fails when a breaking change has no pending major changeset.
import path from "node:path";
import { parseArgs } from "node:util";
import readChangesets from "@changesets/read";
import { loadSpec, specPath } from "@org/payments-spec";
import { diffSpecs, type SpecChange } from "@org/payments-spec/diff";
import { diffPackages } from "@org/payments-surface-guard";

const root = path.resolve(import.meta.dirname, "..");
const releasedPath = path.join(root, "openapi/released/partner-payments.yaml");

const { values: options } = parseArgs({
  options: {
    check: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    base: { type: "string", default: releasedPath },
    head: { type: "string", default: specPath },
    help: { type: "boolean", short: "h", default: false },
  },
});

if (options.help) {
  console.log(`Usage: pnpm spec:diff [--check] [--json] [--base <released spec>] [--head <spec>]

Compares openapi/partner-payments.yaml (or --head) with the last released spec (or --base), on the
wire and in what @org/payments-types and @org/payments-client export, and lists each breaking
change and every other change, each with its rule (openapi/README.md explains them). --json
prints { breaking, additions } with each change's where, message, rule, operation and location.
--check exits 1 when there is a breaking change and no pending major changeset (npm run changeset).`);
  process.exit(0);
}

const base = loadSpec(path.resolve(options.base));
const head = loadSpec(path.resolve(options.head));
const wire = diffSpecs(base, head);
const packages = await diffPackages(base, head);
const report = {
  breaking: [...wire.breaking, ...packages.breaking],
  additions: [...wire.additions, ...packages.additions],
};

if (options.json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const relative = (file: string) => path.relative(root, file);
  console.log(
    `Spec diff: ${relative(path.resolve(options.base))} (${base.info.version}) → ${relative(path.resolve(options.head))} (${head.info.version})`,
  );
  printSection("Breaking changes", "✖", report.breaking);
  printSection("Other changes", "+", report.additions);
}

if (options.check && report.breaking.length > 0) {
  const changesets = await readChangesets(root);
  const major = changesets.find((changeset) => changeset.releases.some((r) => r.type === "major"));
  if (major) {
    console.log(
      `\n${report.breaking.length} breaking change(s), covered by the major changeset "${major.id}".`,
    );
  } else {
    console.error(
      `\n✖ ${report.breaking.length} breaking change(s) and no pending major changeset.\n` +
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
