// payments-mock readiness: the readiness report of the partner of PAYMENTS_API_KEY, from a
// sandbox's store (--state), a running sandbox (--url), or a validating proxy's traffic file of
// live traffic (--from), as text, JSON, Markdown or JUnit XML. Exit code 0 ready, 1 not ready, 2 usage
// (or no report could be made). The key is read from the environment only, and never printed.
// By name, not `await import("@org/payments-sandbox")`: the bundle then holds only the report's
// formats here. What makes a report (the profile, read with YAML and checked with Ajv, and the
// store's reader) is loaded only by --state and --from: a sandbox asked with --url makes its own,
// and a report from --url or --from loads neither the sandbox nor Prism.
import { FORMATS, formatReport, type ReadinessReport } from "@org/payments-sandbox";
import { parseCommandLine, usageFailure } from "./cli-args.js";
import { refuseOtherThanFiles } from "./cli-files.js";
import type { CommandIo } from "./cli-io.js";
import { sandboxBaseUrl } from "./fixtures/sandbox-target.js";
import { printable } from "./output/printable.js";
import { redactor } from "./output/redact.js";

const USAGE = `Usage: payments-mock readiness (--state <file|postgres-url> | --url <sandbox-url> | --from <traffic-file>) [options]

Reports whether the integration of the partner of the API key in PAYMENTS_API_KEY is ready to
go live: each check of the readiness profile, passed, failed or not run, and what is missing.

Where the facts come from (exactly one):
  --state <file|postgres://user@host:port/db>
                         a sandbox's store: its SQLite file, or its Postgres database
  --url <url>            a running sandbox (GET <url>/_sandbox/readiness); its profile decides
  --from <file>          a validating proxy's traffic file (payments-mock proxy --traffic): the
                         operations and statuses of live traffic; checks of other facts are not run

Options:
  --format <format>      text (default), json, markdown or junit (one test case per check)
  --readiness-profile <file>
                         with --state or --from: the profile to check against (default: built in)
  --example-key <key>    with --state: the sandbox's --example-key, if it was given one
  -h, --help             show this help

Environment:
  PAYMENTS_API_KEY       the API key whose partner is reported on (never printed)

Exit codes: 0 ready, 1 not ready, 2 usage or no report made.`;

const OPTIONS = {
  state: { type: "string" },
  url: { type: "string" },
  from: { type: "string" },
  format: { type: "string", default: "text" },
  "readiness-profile": { type: "string" },
  "example-key": { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

/** A failure after the arguments were read: said in words, exit code 2, no usage. */
function stop(message: string, key: string, io: CommandIo): never {
  io.err(`payments-mock readiness: ${printable(message, key)}\n`);
  return io.exit(2);
}

/** `payments-mock readiness`: prints the partner's readiness report; resolves with the exit code. */
export async function readinessMain(argv: string[], io: CommandIo): Promise<number> {
  const fail: (message: string) => never = usageFailure(USAGE, io);
  const args = parseCommandLine(argv, OPTIONS, fail, { positionals: false }).values;
  if (args.help) {
    io.out(`${USAGE}\n`);
    return io.exit(0);
  }
  const format = args.format as (typeof FORMATS)[number];
  if (!FORMATS.includes(format)) {
    fail(`--format must be one of ${FORMATS.join(", ")}, got "${args.format}"`);
  }
  const sources = (["state", "url", "from"] as const).filter((flag) => args[flag] !== undefined);
  if (sources.length !== 1) {
    fail(
      sources.length === 0
        ? "say where the facts come from: --state, --url or --from"
        : `give one of --state, --url and --from, not ${sources.map((flag) => `--${flag}`).join(" and ")}`,
    );
  }
  if (args["readiness-profile"] !== undefined && args.url !== undefined) {
    fail(
      "--readiness-profile goes with --state or --from: with --url, the sandbox's own profile decides",
    );
  }
  if (args["example-key"] !== undefined && args.state === undefined) {
    fail("--example-key goes with --state");
  }
  refuseOtherThanFiles(
    [
      // Read a line at a time: a long traffic file is no problem.
      { file: args.from, option: "--from", whole: false, needed: true },
      { file: args["readiness-profile"], option: "--readiness-profile", needed: true },
    ],
    fail,
  );
  const key = io.env.PAYMENTS_API_KEY ?? "";
  if (key === "" && args.from === undefined) {
    fail("set PAYMENTS_API_KEY to the API key whose partner to report on (it is never printed)");
  }
  const report = await reportFrom(args, key, io).catch((error: Error) =>
    stop(error.message, key, io),
  );
  // A report from --url is the sandbox's words.
  io.out(printable(formatReport(report, format), key));
  return report.ready ? 0 : 1;
}

/** Where a report's facts come from: exactly one of state, url and from. */
type Source = {
  [flag in "state" | "url" | "from" | "readiness-profile" | "example-key"]?: string | undefined;
};

/**
 * The readiness report of the partner of `key`, from its source (payments-mock impact reads it
 * too); a --url that is not one is a usage error of the command whose `io` it is.
 */
export async function reportFrom(args: Source, key: string, io: CommandIo) {
  if (args.url !== undefined) return askSandbox(args.url, key, usageFailure(USAGE, io));
  const profile = await loadProfile(args["readiness-profile"]);
  if (args.from !== undefined) {
    const { liveCalls } = await import("./proxy/traffic.js");
    const calls = await liveCalls(args.from);
    const { liveEvidence, reportOf } = await import("@org/payments-sandbox");
    return reportOf("live", profile, liveEvidence(calls));
  }
  // The store's reader is the one part that needs the sandbox itself.
  const { reportFromStore } = await import("@org/payments-sandbox");
  return reportFromStore(args.state ?? "", key, profile, args["example-key"]);
}

async function loadProfile(path: string | undefined) {
  const { defaultProfile, PROFILE_CONTEXT, readProfile } = await import("@org/payments-sandbox");
  return path === undefined ? defaultProfile(PROFILE_CONTEXT) : readProfile(path, PROFILE_CONTEXT);
}

/** The start of an answer's text, the key taken out before it is cut (so no part of it stays). */
function quoted(text: string, key: string): string {
  return redactor([key], "[API key]")(text).slice(0, 300);
}

/**
 * The report of a running sandbox, which decides it with its own profile; it has `answerMs` to
 * answer, whole.
 */
export async function askSandbox(
  url: string,
  key: string,
  fail: (message: string) => never,
  answerMs = 30_000,
) {
  const base = sandboxBaseUrl(url, {});
  if (!base.ok) fail(base.message);
  const target = new URL("_sandbox/readiness", base.url);
  // The whole answer, body included: a server that never finishes it is said, not waited for.
  const signal = AbortSignal.timeout(answerMs);
  const noAnswer = (error: Error): never => {
    throw new Error(
      signal.aborted
        ? `no whole answer from ${target.origin} within ${answerMs / 1000} s`
        : `no answer from ${target.origin}: ${(error.cause as Error | undefined)?.message ?? error.message}`,
    );
  };
  const response = await fetch(target, {
    headers: { "x-api-key": key, accept: "application/json" },
    signal,
    // Not followed: the key goes to the sandbox given, never where a redirect points.
    redirect: "manual",
  }).catch(noAnswer);
  const text = await response.text().catch(noAnswer);
  if (response.status !== 200) {
    const location = response.headers.get("location");
    throw new Error(
      `${target.href} answered ${response.status}, not a readiness report: ${location === null ? quoted(text, key) : `a redirect to ${location}, not followed: give --url the sandbox's own URL`}`,
    );
  }
  let body: ReadinessReport | undefined;
  try {
    body = JSON.parse(text) as ReadinessReport;
  } catch {
    // Not JSON (an HTML page): refused below as no report.
  }
  if (typeof body?.ready !== "boolean" || !Array.isArray(body.checks)) {
    throw new Error(`${target.href} answered something other than a readiness report`);
  }
  return body;
}
