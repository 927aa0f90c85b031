// payments-mock impact --against <document>: the changes between the API the sandbox serves and
// another version of its document that touch what the partner of PAYMENTS_API_KEY used (the
// operations it called, the statuses they answered, the topics it received), read from the same
// sources as payments-mock readiness. Exit code 1 when a breaking change touches it, 0 otherwise,
// 2 on bad usage. The key is read from the environment only, and never printed.
import { readFile } from "node:fs/promises";
// By name, not `await import(…)` of the packages: the bundle then holds only these modules here,
// not the sandbox and Prism that the packages' entries also lead to.
import { bundledSpecPath, yamlProblem } from "@org/payments-engine";
import { FORMATS } from "@org/payments-sandbox";
import { parseCommandLine, usageFailure } from "./cli-args.js";
import { refuseOtherThanFiles } from "./cli-files.js";
import type { CommandIo } from "./cli-io.js";
import { printable } from "./output/printable.js";

const USAGE = `Usage: payments-mock impact --against <document> (--state <file|postgres-url> | --url <sandbox-url> | --from <traffic-file>) [options]

Lists the changes from the API this package serves to <document> (another version of its
OpenAPI document, YAML or JSON) that touch what the partner of the API key in PAYMENTS_API_KEY
used: the operations it called, the statuses they answered, the webhook topics it received.
Breaking changes come first, each with what to do.

Where the facts come from (exactly one), as for payments-mock readiness:
  --state <file|postgres://user@host:port/db>
                         a sandbox's store: its SQLite file, or its Postgres database
  --url <url>            a running sandbox
  --from <file>          a validating proxy's traffic file (payments-mock proxy --traffic)

Options:
  --format <format>      text (default), json, markdown or junit (one test case per change)
  --example-key <key>    with --state: the sandbox's --example-key, if it was given one
  -h, --help             show this help

Environment:
  PAYMENTS_API_KEY       the API key whose partner's use is compared (never printed)

Exit codes: 0 no breaking change touches it, 1 one does, 2 usage or no report made.`;

const OPTIONS = {
  against: { type: "string" },
  state: { type: "string" },
  url: { type: "string" },
  from: { type: "string" },
  format: { type: "string", default: "text" },
  "example-key": { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

/** A failure after the arguments were read: said in words, exit code 2, no usage. */
function stop(message: string, key: string, io: CommandIo): never {
  io.err(`payments-mock impact: ${printable(message, key)}\n`);
  return io.exit(2);
}

/**
 * `payments-mock impact`: prints the changes that touch what the partner used; resolves with the
 * exit code. `spec` is the API the sandbox serves (default: the copy shipped in this package).
 */
export async function impactMain(
  argv: string[],
  io: CommandIo,
  spec: string = bundledSpecPath(),
): Promise<number> {
  const fail: (message: string) => never = usageFailure(USAGE, io);
  const args = parseCommandLine(argv, OPTIONS, fail, { positionals: false }).values;
  if (args.help) {
    io.out(`${USAGE}\n`);
    return io.exit(0);
  }
  if (!FORMATS.includes(args.format as (typeof FORMATS)[number])) {
    fail(`--format must be one of ${FORMATS.join(", ")}, got "${args.format}"`);
  }
  if (args.against === undefined) fail("say which document to compare with: --against <file>");
  const sources = (["state", "url", "from"] as const).filter((flag) => args[flag] !== undefined);
  if (sources.length !== 1) {
    fail(
      sources.length === 0
        ? "say where the partner's use comes from: --state, --url or --from"
        : `give one of --state, --url and --from, not ${sources.map((flag) => `--${flag}`).join(" and ")}`,
    );
  }
  if (args["example-key"] !== undefined && args.state === undefined) {
    fail("--example-key goes with --state");
  }
  refuseOtherThanFiles(
    [
      { file: args.against, option: "--against", needed: true },
      { file: args.from, option: "--from", whole: false, needed: true },
    ],
    fail,
  );
  const key = io.env.PAYMENTS_API_KEY ?? "";
  if (key === "" && args.from === undefined) {
    fail("set PAYMENTS_API_KEY to the API key whose partner to compare (it is never printed)");
  }
  const against = await documentAt(args.against).catch((error: Error) =>
    stop(error.message, key, io),
  );
  const { reportFrom } = await import("./readiness-cli.js");
  const report = await reportFrom(args, key, io).catch((error: Error) =>
    stop(error.message, key, io),
  );
  const { loadSpec } = await import("@org/payments-spec");
  const { impactOf } = await import("./impact/changes.js");
  const { formatImpact } = await import("./impact/format.js");
  const changes = impactOf(loadSpec(spec), against, report.coverage);
  const breaking = changes.filter((change) => change.breaking).length;
  io.out(formatImpact({ against: args.against, changes, breaking }, args.format));
  return breaking > 0 ? 1 : 0;
}

/** The OpenAPI document at `file`, YAML or JSON; refused when it is not one. */
async function documentAt(file: string) {
  const { parse } = await import("yaml");
  const text = await readFile(file, "utf8").catch((error: Error) => {
    throw new Error(`cannot read --against ${file}: ${error.message}`);
  });
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    throw new Error(
      `--against ${file} is neither YAML nor JSON: ${yamlProblem((error as Error).message)}`,
    );
  }
  const fields = doc as { openapi?: unknown; paths?: unknown } | null;
  if (typeof fields?.openapi !== "string" || typeof fields.paths !== "object") {
    throw new Error(
      `--against ${file} is not an OpenAPI document (it needs \`openapi\` and \`paths\`): give a version of the API's document`,
    );
  }
  const problem = refProblem(doc);
  if (problem !== undefined) throw new Error(`--against ${file}: ${problem}`);
  return doc as import("@org/payments-spec").OpenApiDocument;
}

/**
 * What is wrong with the document's `$ref`s, if anything: each must point into the document itself
 * (nothing is fetched, from another host or file), to a node that is there, and a `$ref` that
 * points to another must not come back to itself (it would never resolve). A schema that holds
 * itself (a tree) is fine. Walked without recursion: the document may nest deeply.
 */
function refProblem(doc: unknown): string | undefined {
  const pending: [unknown, string][] = [[doc, "#"]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [node, place] = next;
    if (node === null || typeof node !== "object") continue;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === "string") {
      const problem = chainProblem(doc, ref);
      if (problem !== undefined) return `the $ref at ${place} ${problem}`;
    }
    for (const [key, value] of Object.entries(node)) {
      if (value !== null && typeof value === "object") {
        pending.push([value, `${place}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`]);
      }
    }
  }
  return undefined;
}

/** What is wrong with following `ref` (and the `$ref`s it leads to), if anything. */
function chainProblem(doc: unknown, ref: string): string | undefined {
  const seen = new Set<string>();
  for (let current: string | undefined = ref; current !== undefined; ) {
    if (!current.startsWith("#/")) {
      return `is ${JSON.stringify(current)}, not a pointer into this document (#/…): impact reads one document and fetches nothing (from another host or file); bundle it into one first (redocly bundle)`;
    }
    if (seen.has(current)) {
      return `leads back to ${current} through ${[...seen].join(" → ")}: a $ref must end at a node that is not one`;
    }
    seen.add(current);
    const node = pointerTarget(doc, current);
    if (node === undefined) {
      return `points to ${current}, which is not in the document: point it at a node the document has`;
    }
    const onward = (node as { $ref?: unknown } | null)?.$ref;
    current = typeof onward === "string" ? onward : undefined;
  }
  return undefined;
}

/**
 * The node a local JSON pointer (`#/components/schemas/A`) names, or undefined: read as the
 * diff reads it (no %-escapes), and only the document's own keys.
 */
function pointerTarget(doc: unknown, pointer: string): unknown {
  let node: unknown = doc;
  for (const part of pointer.slice(2).split("/")) {
    const key = part.replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
