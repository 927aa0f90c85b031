#!/usr/bin/env node
// payments-mock: serves the partner payments spec with Prism until Ctrl-C or SIGTERM;
// `payments-mock proxy <upstream-url>` runs the validating proxy instead.
import { readFileSync } from "node:fs";
import { EMPTY_HOST, parseCommandLine, parsePort, usageFailure } from "./cli-args.js";
import { refuseOtherThanFiles } from "./cli-files.js";
import { processIo, runInProcess } from "./cli-io.js";
import { stdoutLines } from "./line-writer.js";
import { printable } from "./output/printable.js";
import { stopWithNpm } from "./stop-with-parent.js";

const USAGE = `Usage: payments-mock [options]

       payments-mock proxy <upstream-url> [options]   (see payments-mock proxy --help)
       payments-mock readiness [options]              (see payments-mock readiness --help)
       payments-mock impact --against <document>      (see payments-mock impact --help)
       payments-mock fixtures <file> [options]        (see payments-mock fixtures --help)
       payments-mock trigger <topic> [options]        (see payments-mock trigger --help)
       payments-mock listen [options]                 (see payments-mock listen --help)
       payments-mock logs tail [options]              (see payments-mock logs --help)

Serves a Prism mock of the partner payments API.

Options:
  --host <host>   interface to listen on (default: $HOST or 127.0.0.1)
  --port <port>   port to listen on, 0 for a free one (default: $PORT or 4010)
  --dynamic       generate response data from the schemas instead of returning the spec's examples
  --spec <path>   OpenAPI document to mock (default: the spec shipped with this package)
  --watch         reload the spec when its file changes
  --stateful      serve the stateful sandbox: creates persist, idempotency keys replay,
                  webhooks are delivered (see the README)
  --state <file|postgres://user@host:port/db>
                  with --stateful: where the sandbox data persists: a SQLite database file
                  (a 0.1 JSON state file is migrated into one), or a Postgres database that
                  several mocks share (default: memory only)
  --seed <file>   with --stateful: JSON seed data (default: made of the spec's examples)
  --delivery-chaos <n>
                  with --stateful: duplicate and reorder webhook deliveries, the same way
                  for the same number n (see the README)
  --example-key <key>
                  with --stateful: the API key whose partner holds the whole seed; every
                  other key is a partner of its own that starts with the seed's documents,
                  fee profiles and rates (default: sandbox-key)
  --idle-days <n> with --stateful: purge a partner's data n days after its last request,
                  0 never (default: 30)
  --max-partners <n>
                  with --stateful: keep at most n partners (API keys); a new key beyond
                  them takes the place of one idle 15 minutes, else it is refused (503),
                  0 for no limit (default: 1000)
  --no-rehearsal  with --stateful: no fault rules, rate limit or request log (their
                  /_sandbox/ routes answer 404)
  --readiness-profile <file>
                  with --stateful: the readiness profile (YAML) that GET /_sandbox/readiness
                  checks against, instead of the default one
  --no-cors       do not answer CORS preflights or send CORS headers
  --quiet         do not log requests
  -v, --version   print the version of payments-mock
  -h, --help      show this help`;

const fail: (message: string) => never = usageFailure(USAGE, processIo);

const OPTIONS = {
  host: { type: "string" },
  port: { type: "string" },
  dynamic: { type: "boolean", default: false },
  spec: { type: "string" },
  watch: { type: "boolean", default: false },
  stateful: { type: "boolean", default: false },
  state: { type: "string" },
  seed: { type: "string" },
  "delivery-chaos": { type: "string" },
  "example-key": { type: "string" },
  "idle-days": { type: "string" },
  "max-partners": { type: "string" },
  rehearsal: { type: "boolean", default: true },
  "readiness-profile": { type: "string" },
  cors: { type: "boolean", default: true },
  quiet: { type: "boolean", default: false },
  version: { type: "boolean", short: "v", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

/** The installed package's version: its package.json sits one folder above dist/ (and src/). */
function packageVersion(): string {
  const manifest = readFileSync(new URL("../package.json", import.meta.url), "utf8");
  return (JSON.parse(manifest) as { version: string }).version;
}

if (process.argv[2] === "--version" || process.argv[2] === "-v") {
  console.log(packageVersion());
} else if (process.argv[2] === "proxy") {
  const { runProxyCli } = await import("./proxy-cli.js");
  await runProxyCli(process.argv.slice(3));
} else if (process.argv[2] === "readiness") {
  const { readinessMain } = await import("./readiness-cli.js");
  await runInProcess(readinessMain, process.argv.slice(3));
} else if (process.argv[2] === "impact") {
  const { impactMain } = await import("./impact-cli.js");
  await runInProcess(impactMain, process.argv.slice(3));
} else if (process.argv[2] === "fixtures") {
  const { fixturesMain } = await import("./fixtures-cli.js");
  await runInProcess(fixturesMain, process.argv.slice(3));
} else if (process.argv[2] === "logs") {
  const { runLogsCli } = await import("./logs-cli.js");
  await runLogsCli(process.argv.slice(3));
} else if (process.argv[2] === "listen") {
  const { runListenCli } = await import("./listen-cli.js");
  await runListenCli(process.argv.slice(3));
} else if (process.argv[2] === "trigger") {
  const { triggerMain } = await import("./trigger-cli.js");
  await runInProcess(triggerMain, process.argv.slice(3));
} else {
  await runMock();
}

async function runMock() {
  const args = parseCommandLine(process.argv.slice(2), OPTIONS, fail, {
    positionals: false,
    negatives: true,
  }).values;
  if (args.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (args.version) {
    console.log(packageVersion());
    process.exit(0);
  }

  const sandboxFlags = [
    "state",
    "seed",
    "delivery-chaos",
    "example-key",
    "idle-days",
    "max-partners",
    "readiness-profile",
  ] as const;
  for (const flag of sandboxFlags) {
    if (args[flag] !== undefined && !args.stateful) fail(`--${flag} needs --stateful`);
  }
  if (!args.rehearsal && !args.stateful) fail("--no-rehearsal needs --stateful");

  // An empty PORT or HOST counts as unset; an empty --host listened on every interface.
  if (args.host === "") fail(EMPTY_HOST);
  const portSource = args.port !== undefined ? "--port" : "PORT";
  const port = parsePort(args.port ?? (process.env.PORT || "4010"), portSource, fail);
  const chaos = args["delivery-chaos"];
  if (chaos !== undefined && !/^\d{1,9}$/.test(chaos)) {
    fail(`--delivery-chaos must be a whole number (the seed of its choices), got "${chaos}"`);
  }
  const idleDays = args["idle-days"];
  if (idleDays !== undefined && !/^\d{1,6}(\.\d+)?$/.test(idleDays)) {
    fail(`--idle-days must be a number of days, 0 or more, got "${idleDays}"`);
  }
  const maxPartners = args["max-partners"];
  if (maxPartners !== undefined && !/^\d{1,9}$/.test(maxPartners)) {
    fail(`--max-partners must be a whole number of partners, 0 for no limit, got "${maxPartners}"`);
  }
  const exampleKey = args["example-key"];
  if (exampleKey === "") fail("--example-key must not be empty");
  refuseOtherThanFiles(
    [
      { file: args.spec, option: "--spec", needed: true },
      { file: args.seed, option: "--seed", needed: true },
      { file: args["readiness-profile"], option: "--readiness-profile", needed: true },
      // A SQLite database of any size, made when it is not there; a Postgres URL is no file.
      ...(args.state === undefined || /^postgres(ql)?:\/\//i.test(args.state)
        ? []
        : [{ file: args.state, option: "--state", whole: false, made: true }]),
    ],
    fail,
  );
  // Loaded only now, so that --help and flag errors answer without loading Prism.
  const { startMock } = await import("./start-mock.js");
  const { isPostgresUrl, redactedUrl } = await import("@org/payments-sandbox/store");
  /** Where the data is, for the start line; a Postgres password is never printed. */
  const stateDescription = (state: string) =>
    isPostgresUrl(state) ? `Postgres ${redactedUrl(state)}` : `SQLite file ${state}`;
  const mock = await startMock({
    host: args.host ?? (process.env.HOST || "127.0.0.1"),
    port,
    dynamic: args.dynamic,
    ...(args.spec !== undefined && { spec: args.spec }),
    watch: args.watch,
    cors: args.cors,
    ...(args.stateful && { stateful: true, state: args.state, seed: args.seed }),
    ...(chaos !== undefined && { deliveryChaos: { seed: Number(chaos) } }),
    ...(exampleKey !== undefined && { exampleKey }),
    ...(idleDays !== undefined && { idleDays: Number(idleDays) }),
    ...(maxPartners !== undefined && { maxPartners: Number(maxPartners) }),
    ...(!args.rehearsal && { rehearsal: false }),
    ...(args["readiness-profile"] !== undefined && {
      readinessProfile: args["readiness-profile"],
    }),
    ...(!args.quiet && { log: stdoutLines() }),
  }).catch((error: Error) => {
    // A file's words quoted in the message (a seed that is not JSON) may hold control characters.
    console.error(`payments-mock: ${printable(error.message, "")}`);
    process.exit(1);
  });

  const mode = args.stateful
    ? ` (stateful sandbox${args.state ? `, state in ${stateDescription(args.state)}` : ""})`
    : args.dynamic
      ? " (dynamic data)"
      : "";
  console.log(`payments-mock listening on ${mock.url}${mode}`);

  const stop = () => {
    mock.stop().then(() => process.exit(0));
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, stop);
  stopWithNpm(stop);
}
