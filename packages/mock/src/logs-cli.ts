// payments-mock logs tail: the request log of the partner of PAYMENTS_API_KEY, live, filtered.
// Runs until Ctrl-C or SIGTERM (exit code 0); 2 for a usage error or a sandbox whose request log
// cannot be read. The key is read from the environment only and never printed.
import { parseCommandLine, usageFailure } from "./cli-args.js";
import { processIo } from "./cli-io.js";
import { sandboxBaseUrl } from "./fixtures/sandbox-target.js";
import { printable } from "./output/printable.js";
import { stopWithNpm } from "./stop-with-parent.js";

const USAGE = `Usage: payments-mock logs tail [options]

Prints the request log of the partner of the API key in PAYMENTS_API_KEY as it grows: a line per
API request the sandbox answered (the time, the method and path, the status, how long it took,
the operation and the X-Request-Id it was answered with). No body, no key.

Options:
  --url <url>              the sandbox (default: $PAYMENTS_BASE_URL, else http://127.0.0.1:4010)
  --operation <id>         only this operation (an operationId, such as createCustomer)
  --method <method>        only this HTTP method
  --status <status>        only this status (404) or class (4xx)
  --path <prefix>          only paths that start with this
  --request-id <id>        only the request answered with this X-Request-Id
  --format <format>        text (default) or json (a JSON object per line)
  -h, --help               show this help

Environment:
  PAYMENTS_API_KEY         the API key whose partner's requests to show (never printed)
  PAYMENTS_BASE_URL        the sandbox, when --url is not given`;

const fail: (message: string) => never = usageFailure(USAGE, processIo);

const OPTIONS = {
  url: { type: "string" },
  operation: { type: "string" },
  method: { type: "string" },
  status: { type: "string" },
  path: { type: "string" },
  "request-id": { type: "string" },
  format: { type: "string", default: "text" },
  help: { type: "boolean", short: "h", default: false },
} as const;

/** How often the log is read. */
const INTERVAL_MS = 250;

export async function runLogsCli(argv: string[]): Promise<void> {
  const { values: args, positionals } = parseCommandLine(argv, OPTIONS, fail, {
    positionals: true,
  });
  if (args.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (positionals[0] !== "tail" || positionals.length > 1) {
    const got = positionals.length === 0 ? "nothing" : `"${positionals.join(" ")}"`;
    fail(`say what to do with the logs: payments-mock logs tail, got ${got}`);
  }
  const format = args.format;
  if (format !== "text" && format !== "json")
    fail(`--format must be text or json, got "${format}"`);
  const status = args.status;
  if (status !== undefined && !/^([1-5][0-9][0-9]|[1-5]xx)$/i.test(status)) {
    fail(`--status must be a status (404) or a class (4xx), got "${status}"`);
  }
  const method = args.method?.toUpperCase();
  if (method !== undefined && !/^[A-Z]+$/.test(method))
    fail(`--method must be an HTTP method, got "${args.method}"`);
  const path = args.path;
  if (path !== undefined && !path.startsWith("/")) fail(`--path must start with /, got "${path}"`);
  const base = sandboxBaseUrl(args.url, process.env);
  if (!base.ok) fail(base.message);
  const key = process.env.PAYMENTS_API_KEY ?? "";
  if (key === "")
    fail("set PAYMENTS_API_KEY to the API key whose requests to show (it is never printed)");
  const stopped = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => stopped.abort());
  }
  // Started by npx (`npx @org/payments-mock logs tail … &`, then `kill $!`), it stops with npm.
  stopWithNpm(() => stopped.abort());
  const { tailRequestLog } = await import("./logs/tail.js");
  await tailRequestLog({
    baseUrl: base.url,
    apiKey: key,
    filter: {
      ...(args.operation !== undefined && { operation: args.operation }),
      ...(method !== undefined && { method }),
      ...(status !== undefined && { status: status.toLowerCase() }),
      ...(path !== undefined && { path }),
      ...(args["request-id"] !== undefined && { requestId: args["request-id"] }),
    },
    format,
    intervalMs: INTERVAL_MS,
    write: (line) => process.stdout.write(`${printable(line, key)}\n`),
    warn: (line) => process.stderr.write(`payments-mock logs tail: ${printable(line, key)}\n`),
    signal: stopped.signal,
  }).catch((error: Error) => {
    console.error(`payments-mock logs tail: ${printable(error.message, key)}`);
    process.exit(2);
  });
  process.exit(0);
}
