// `npm run spec:changelog`: the API's changelog, each released version of each document with every
// change a consumer can feel, breaking first (openapi/released/changelog.json), and on top what the
// working documents change since (not released yet).
import path from "node:path";
import { parseArgs } from "node:util";
import { type ApiRelease, changelogMarkdown, readChangelog } from "../src/changelog.ts";
import { pendingReleases } from "../src/pending.ts";
import { guardChanges, rebuildChangelog } from "../src/release-documents.ts";
import { SpecFileError } from "../src/spec-file.ts";

/** The options given; an unknown one, or one without its value, is said in a line (exit 2). */
function optionsGiven() {
  try {
    return parseArgs({
      options: {
        format: { type: "string", default: "markdown" },
        released: { type: "boolean", default: false },
        rebuild: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    }).values;
  } catch (error) {
    console.error(
      `spec:changelog: ${(error as Error).message.split("\n")[0]}; --help lists the options`,
    );
    return process.exit(2);
  }
}

const options = optionsGiven();

if (options.help) {
  console.log(`Usage: npm run spec:changelog -- [--format markdown|json] [--released] [--rebuild]

Prints the API's changelog: for each released version of openapi/partner-payments.yaml and
openapi/test-mode.yaml, newest first, the date and every change a consumer can feel (the operation,
the field, added/changed/deprecated/removed, breaking or not, why it breaks and what to do, the
client methods and MCP tools it touches), read from openapi/released/changelog.json. On top, what
the working documents change since their release, as the version they would become (date null).
  --format json   { unreleased: [release…], releases: [release…] }, each release
                  { document, version, previous, date, level, changes: [change…] }
  --released      only the released versions (no comparison is run)
  --rebuild       the released versions made again from openapi/released/history/`);
  process.exit(0);
}
if (options.format !== "markdown" && options.format !== "json") {
  console.error(`--format must be markdown or json (got "${options.format}")`);
  process.exit(2);
}

const root = path.resolve(import.meta.dirname, "../../..");
const { releases } = options.rebuild ? await rebuildChangelog(root) : readChangelog(root);
const unreleased: ApiRelease[] = options.released
  ? []
  : await pendingReleases(root, null, guardChanges).catch((error: unknown) => {
      // A working document that is none: what to fix, not a stack trace.
      if (!(error instanceof SpecFileError)) throw error;
      console.error(error.message);
      process.exit(2);
    });
console.log(
  options.format === "json"
    ? JSON.stringify({ unreleased, releases }, null, 2)
    : changelogMarkdown([...unreleased, ...releases]),
);
