// payments-mock listen: the partner's events, streamed from a sandbox the laptop connects to,
// forwarded to local receivers as webhook deliveries. Runs until Ctrl-C or SIGTERM (exit code 0);
// 2 for a usage error or a stream the sandbox refuses. The key is read from PAYMENTS_API_KEY only
// and never printed.
import { WEBHOOK_TOPICS } from "@org/payments-types";
import { parseCommandLine, usageFailure } from "./cli-args.js";
import { refuseOtherThanFiles } from "./cli-files.js";
import { processIo } from "./cli-io.js";
import { sandboxBaseUrl } from "./fixtures/sandbox-target.js";
import { stdoutLines } from "./line-writer.js";
import { printable } from "./output/printable.js";
import { withoutUserInfo } from "./output/redact.js";
import { stopWithNpm } from "./stop-with-parent.js";

const USAGE = `Usage: payments-mock listen [options]

Streams the events of the partner of the API key in PAYMENTS_API_KEY from a sandbox
(GET /_sandbox/events/stream), and posts each to a local receiver exactly as a webhook
delivery would (the same body and headers). Prints "Ready" once the stream is open, then a
line per event: the time, the topic, the event id, the receiver's status and how long it took.
A broken connection (the sandbox restarted, the network dropped) is opened again after the
last event forwarded: none is lost, none is forwarded twice. The receivers' answers count as
the partner's acknowledgements in the readiness report, as a webhook's do.

Options:
  --url <url>              the sandbox (default: $PAYMENTS_BASE_URL, else http://127.0.0.1:4010)
  --forward-to <url>       the receiver to post events to (default: none, events are printed only)
  --forward <Topic>=<url>  this topic's events go to this receiver instead (repeatable)
  --events <topics>        only these topics, comma-separated (default: every topic, or those of
                           --forward when only it is given)
  --cursor-file <file>     keep the position here: a restart of listen resumes after the last
                           event forwarded
  --after <cursor>         start after this cursor (0: every event the sandbox keeps) instead of
                           with the events from now on
  --format <format>        text (default) or json (a JSON object per line)
  -h, --help               show this help

Environment:
  PAYMENTS_API_KEY         the API key whose partner's events to stream (never printed)
  PAYMENTS_BASE_URL        the sandbox, when --url is not given`;

const fail: (message: string) => never = usageFailure(USAGE, processIo);

const OPTIONS = {
  url: { type: "string" },
  "forward-to": { type: "string" },
  forward: { type: "string", multiple: true },
  events: { type: "string" },
  "cursor-file": { type: "string" },
  after: { type: "string" },
  format: { type: "string", default: "text" },
  help: { type: "boolean", short: "h", default: false },
} as const;

export async function runListenCli(argv: string[]): Promise<void> {
  const args = parseCommandLine(argv, OPTIONS, fail, { positionals: false }).values;
  if (args.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const format = args.format;
  if (format !== "text" && format !== "json")
    fail(`--format must be text or json, got "${format}"`);
  const base = sandboxBaseUrl(args.url, process.env);
  if (!base.ok) fail(base.message);
  const forwardTo =
    args["forward-to"] === undefined ? undefined : receiverUrl(args["forward-to"], "--forward-to");
  const routes = new Map<string, URL>();
  for (const route of args.forward ?? []) {
    const split = route.indexOf("=");
    const topic = split < 0 ? "" : route.slice(0, split);
    if (split < 0) fail(`--forward takes <Topic>=<url>, got "${route}"`);
    checkTopic(topic, "--forward");
    routes.set(topic, receiverUrl(route.slice(split + 1), `--forward ${topic}=`));
  }
  const topics =
    args.events !== undefined
      ? args.events.split(",").map((topic) => checkTopic(topic.trim(), "--events"))
      : forwardTo === undefined
        ? [...routes.keys()]
        : [];
  // A receiver of a topic --events leaves out would get nothing, unsaid.
  const unstreamed = [...routes.keys()].find(
    (topic) => args.events !== undefined && !topics.includes(topic),
  );
  if (unstreamed !== undefined) {
    fail(
      `--forward ${unstreamed}=… names a topic --events leaves out, so its receiver would get nothing: add ${unstreamed} to --events, or leave --events out`,
    );
  }
  // Read at the start and written after each event; made when it is not there.
  refuseOtherThanFiles([{ file: args["cursor-file"], option: "--cursor-file", made: true }], fail);
  const after = args.after;
  if (after !== undefined && !/^\d{1,18}$/.test(after)) {
    fail(`--after must be a cursor (a whole number, 0 for every event kept), got "${after}"`);
  }
  const key = process.env.PAYMENTS_API_KEY ?? "";
  if (key === "") {
    fail(
      "set PAYMENTS_API_KEY to the API key whose partner's events to stream (it is never printed)",
    );
  }
  const stopped = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => stopped.abort());
  }
  // Started by npx (`npx @org/payments-mock listen … &`, then `kill $!`), it stops with npm: the
  // events taken are forwarded, their lines printed and the cursor file written first.
  stopWithNpm(() => stopped.abort());
  const { listen } = await import("./listen/listen.js");
  // The lines of the events forwarded in one turn go out in one write (a write per line cost a
  // busy listen a tenth of its time); what is pending is written as it exits.
  const lines = stdoutLines();
  await listen({
    baseUrl: base.url,
    apiKey: key,
    topics,
    ...(forwardTo !== undefined && { forwardTo }),
    routes,
    ...(args["cursor-file"] !== undefined && { cursorFile: args["cursor-file"] }),
    ...(after !== undefined && { after }),
    format,
    write: (line) => lines(printable(line, key)),
    warn: (line) => process.stderr.write(`payments-mock listen: ${printable(line, key)}\n`),
    signal: stopped.signal,
  }).catch((error: Error) => {
    console.error(`payments-mock listen: ${printable(error.message, key)}`);
    process.exit(2);
  });
  process.exit(0);
}

function checkTopic(topic: string, flag: string): string {
  if (!(WEBHOOK_TOPICS as readonly string[]).includes(topic)) {
    fail(`${flag}: "${topic}" is not a webhook topic; the topics are ${WEBHOOK_TOPICS.join(", ")}`);
  }
  return topic;
}

function receiverUrl(text: string, flag: string): URL {
  const url = URL.parse(text);
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) {
    fail(`${flag} must be the receiver's http(s) URL, got "${withoutUserInfo(text)}"`);
  }
  return url;
}
