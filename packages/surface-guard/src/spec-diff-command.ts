// `npm run spec:diff`'s command line: its options, its usage, what it prints on stdout and stderr
// and its exit code, as one function of its arguments. `scripts/spec-diff.ts` only prints what it
// returns and exits with its code, so that a test runs the command in its own process.
import { parseArgs } from "node:util";
import { checkSpecDiff, SPEC_DIFF_FILES, specDiff } from "./spec-diff.ts";
import { SpecFileError } from "./spec-file.ts";

/** What the command prints on each stream (each line ended), and the code it exits with. */
type CommandResult = { stdout: string; stderr: string; exitCode: number };

const USAGE = `Usage: pnpm spec:diff [--check] [--json] [--base <released spec>] [--head <spec>]
                     [--test-mode-base <released test-mode spec>] [--test-mode-head <test-mode spec>]

Compares openapi/partner-payments.yaml (or --head) with the last released spec (or --base), on the
wire and in what @org/payments-types and @org/payments-client export; then, in a section of its
own, openapi/test-mode.yaml (or --test-mode-head) with its last released version (or
--test-mode-base), on the wire and in what @org/payments-mock exports (its typed controls). Lists each breaking change and every other change, each with its
rule (openapi/README.md explains them). --json prints { breaking, additions, testMode: { breaking,
additions } } with each change's where, message, rule, operation and location. --check exits 1
when a change has no changeset added with it (a pending one from before does not count) on each
published package it reaches: a breaking change needs a major, an addition or a deprecation at
least a minor (npm run changeset). A document that cannot be compared (not there, not YAML, not
OpenAPI 3.1, a $ref to nothing) is refused, exit 2, naming the file, the line and what to fix.`;

/** `npm run spec:diff <args>`: the report, and with `--check` the verdict (exit 1 when it fails). */
export async function specDiffCommand(args: string[]): Promise<CommandResult> {
  const options = optionsOf(args);
  if (typeof options === "string") {
    return { stdout: "", stderr: `spec:diff: ${options}; --help lists the options\n`, exitCode: 2 };
  }
  if (options.help) return { stdout: `${USAGE}\n`, stderr: "", exitCode: 0 };

  const diff = await specDiff({
    base: options.base,
    head: options.head,
    testModeBase: options["test-mode-base"],
    testModeHead: options["test-mode-head"],
  }).catch((error: unknown) => {
    if (error instanceof SpecFileError) return error;
    throw error;
  });
  // A document it cannot compare: what to fix, and no verdict at all.
  if (diff instanceof SpecFileError)
    return { stdout: "", stderr: `${diff.message}\n`, exitCode: 2 };
  const { report, text, changes } = diff;
  const printed = options.json ? JSON.stringify(report, null, 2) : text;
  const verdict = options.check ? await checkSpecDiff(changes) : undefined;
  if (verdict?.failed) {
    return { stdout: `${printed}\n`, stderr: `${verdict.message}\n`, exitCode: 1 };
  }
  const lines = verdict ? [printed, verdict.message] : [printed];
  return { stdout: lines.map((line) => `${line}\n`).join(""), stderr: "", exitCode: 0 };
}

/** The options given, or what is wrong with them (parseArgs's words: an unknown option, a missing value). */
function optionsOf(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        check: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
        base: { type: "string", default: SPEC_DIFF_FILES.base },
        head: { type: "string", default: SPEC_DIFF_FILES.head },
        "test-mode-base": { type: "string", default: SPEC_DIFF_FILES.testModeBase },
        "test-mode-head": { type: "string", default: SPEC_DIFF_FILES.testModeHead },
        help: { type: "boolean", short: "h", default: false },
      },
    }).values;
  } catch (error) {
    return (error as Error).message.split("\n")[0] ?? "the options cannot be read";
  }
}
