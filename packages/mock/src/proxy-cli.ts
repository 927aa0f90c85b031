// payments-mock proxy <upstream-url>: the validating proxy until Ctrl-C or SIGTERM, then a
// summary of the violations found (exit code 1 with --fail-on-violation if there were any).
import path from "node:path";
import { EMPTY_HOST, parseCommandLine, parsePort, usageFailure } from "./cli-args.js";
import { refuseOtherThanFiles } from "./cli-files.js";
import { processIo } from "./cli-io.js";
import { stdoutLines } from "./line-writer.js";
import { withoutUserInfo } from "./output/redact.js";
import type { ViolationSummary } from "./proxy/start-proxy.js";
import { stopWithNpm } from "./stop-with-parent.js";

const USAGE = `Usage: payments-mock proxy <upstream-url> [options]

Sends every request on to the upstream (the real service) and checks the request and the
response against the partner payments spec, reporting what breaks it.

Options:
  --host <host>               interface to listen on (default: $HOST or 127.0.0.1)
  --port <port>               port to listen on, 0 for a free one (default: $PORT or 4010)
  --spec <path>               OpenAPI document to check against (default: the spec shipped with this package)
  --errors                    refuse invalid requests (4xx problem, not sent on) and replace
                              responses that break the spec with a 502 problem
  --report <file>             append each violation to <file> as one line of JSON
  --traffic <file>            append each answered request's operation and status to <file>
                              as one line of JSON, which payments-mock readiness --from reads
  --fail-on-violation         exit with code 1 on SIGINT/SIGTERM if there were violations
  --upstream-timeout <secs>   how long the upstream may take to answer (default: 30)
  --no-cors                   do not answer CORS preflights or add CORS headers
  --quiet                     log only requests with violations
  -h, --help                  show this help`;

const fail: (message: string) => never = usageFailure(USAGE, processIo);

const OPTIONS = {
  host: { type: "string" },
  port: { type: "string" },
  spec: { type: "string" },
  errors: { type: "boolean", default: false },
  report: { type: "string" },
  traffic: { type: "string" },
  "fail-on-violation": { type: "boolean", default: false },
  "upstream-timeout": { type: "string" },
  cors: { type: "boolean", default: true },
  quiet: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

/** The summary printed when the proxy stops. */
function summaryLines({ total, byOperation }: ViolationSummary): string {
  if (total === 0) return "payments-mock proxy: no violations";
  const lines = Object.entries(byOperation)
    .sort(([, a], [, b]) => b - a)
    .map(([operation, count]) => `  ${operation}: ${count}`);
  return [`payments-mock proxy: ${total} violation${total === 1 ? "" : "s"}`, ...lines].join("\n");
}

export async function runProxyCli(argv: string[]): Promise<void> {
  const { values: args, positionals } = parseCommandLine(argv, OPTIONS, fail, {
    positionals: true,
    negatives: true,
  });
  if (args.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const [upstream, ...extra] = positionals;
  if (upstream === undefined)
    fail("proxy needs the upstream's URL, such as https://api.example.com");
  if (extra.length > 0) fail(`unexpected argument "${extra[0]}"`);
  const shown = withoutUserInfo(upstream);
  const parsed = URL.parse(upstream);
  if (parsed === null || !/^https?:$/.test(parsed.protocol)) {
    const port = /^https?:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(upstream)?.[1];
    fail(
      port !== undefined && Number(port) > 65535
        ? `the upstream's port ${port} is past 65535: give the upstream's URL with its port, such as https://api.example.com`
        : `the upstream must be an http(s) URL, such as https://api.example.com, got "${shown}"`,
    );
  }
  if (parsed.search !== "" || parsed.hash !== "") {
    fail(
      `the upstream must not have a query or a fragment (the requests' paths follow it), got "${shown}"`,
    );
  }
  const timeout = args["upstream-timeout"];
  const seconds = Number(timeout ?? "30");
  if (timeout !== undefined && !(/^\d+(\.\d+)?$/.test(timeout) && seconds > 0)) {
    fail(`--upstream-timeout must be a positive number of seconds, got "${timeout}"`);
  }
  if (
    args.report !== undefined &&
    args.traffic !== undefined &&
    path.resolve(args.report) === path.resolve(args.traffic)
  ) {
    fail("--traffic and --report must name different files: the report holds violations only");
  }
  // The report and traffic files are made when they are not there, and only appended to.
  refuseOtherThanFiles(
    [
      { file: args.spec, option: "--spec", needed: true },
      { file: args.report, option: "--report", whole: false, made: true },
      { file: args.traffic, option: "--traffic", whole: false, made: true },
    ],
    fail,
  );
  // An empty --host listened on every interface.
  if (args.host === "") fail(EMPTY_HOST);
  const portSource = args.port !== undefined ? "--port" : "PORT";
  const port = parsePort(args.port ?? (process.env.PORT || "4010"), portSource, fail);
  const log = stdoutLines();
  // Loaded only now, so that --help and flag errors answer without loading Prism.
  const { startProxy } = await import("./proxy/start-proxy.js");
  const proxy = await startProxy({
    upstream,
    host: args.host ?? (process.env.HOST || "127.0.0.1"),
    port,
    ...(args.spec !== undefined && { spec: args.spec }),
    errors: args.errors,
    ...(args.report !== undefined && { report: args.report }),
    ...(args.traffic !== undefined && { traffic: args.traffic }),
    upstreamTimeoutMs: seconds * 1000,
    cors: args.cors,
    log: args.quiet ? quietLog(log) : log,
  }).catch((error: Error) => {
    console.error(`payments-mock: ${error.message}`);
    process.exit(1);
  });
  const mode = args.errors ? " (refusing what breaks the spec)" : "";
  console.log(`payments-mock proxy listening on ${proxy.url} → ${new URL(upstream).origin}${mode}`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    proxy.stop().then(() => {
      log.flush();
      const summary = proxy.summary();
      console.log(summaryLines(summary));
      process.exit(args["fail-on-violation"] && summary.total > 0 ? 1 : 0);
    });
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, stop);
  // Started by npx (`npx @org/payments-mock proxy … &`, then `kill $!`), it stops with npm.
  stopWithNpm(stop);
}

/** With --quiet, only the lines of requests with violations. */
function quietLog(log: (line: string) => void): (line: string) => void {
  return (line) => {
    if (line.includes(" violation")) log(line);
  };
}
