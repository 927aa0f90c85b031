// `pnpm spec:diff`: what the working documents change against the last released ones: the API's
// (partner-payments.yaml) and the test mode's (test-mode.yaml), each in its own section.
// With --check it fails when a change of either has no changeset added with it (src/changeset-check.ts).
import { parseArgs } from "node:util";
import { checkSpecDiff, SPEC_DIFF_FILES, specDiff } from "../src/index.ts";

const { values: options } = parseArgs({
  options: {
    check: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    base: { type: "string", default: SPEC_DIFF_FILES.base },
    head: { type: "string", default: SPEC_DIFF_FILES.head },
    "test-mode-base": { type: "string", default: SPEC_DIFF_FILES.testModeBase },
    "test-mode-head": { type: "string", default: SPEC_DIFF_FILES.testModeHead },
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
when a change has no changeset added with it (a pending one from before does not count) on each
published package it reaches: a breaking change needs a major, an addition or a deprecation at
least a minor (npm run changeset).`);
  process.exit(0);
}

const files = {
  base: options.base,
  head: options.head,
  testModeBase: options["test-mode-base"],
  testModeHead: options["test-mode-head"],
};
const { report, text, changes } = await specDiff(files);
console.log(options.json ? JSON.stringify(report, null, 2) : text);

const verdict = options.check ? await checkSpecDiff(changes) : undefined;
if (verdict?.failed) {
  console.error(verdict.message);
  process.exit(1);
}
if (verdict) console.log(verdict.message);
