/**
 * `payments-mcp`: reads its configuration from the environment and its flags, then serves MCP
 * over stdio (the default) or Streamable HTTP (`--http`). What stops it from starting is one line
 * on standard error, and exit code 2.
 */
import { parseArgs } from "node:util";
// http.ts and stdio.ts are loaded when chosen: the HTTP stack is a fifth of the start-up time.
import { tools } from "./generated/tools.js";
import { ALLOW_WRITES_FLAG, DEFAULT_HTTP_PORT, READ_ONLY_FLAG } from "./limits.js";
import { DEFAULT_BASE_URL, type PaymentsMcpOptions } from "./options.js";
import { redactText } from "./redact.js";
import { parseToolsets, toolsetNames } from "./toolsets.js";
import { VERSION } from "./version.js";

const USAGE = `payments-mcp ${VERSION}: an MCP server for the partner payments API

Usage: PAYMENTS_API_KEY=<key> payments-mcp [options]

Environment:
  PAYMENTS_API_KEY         the partner's API key (required; never given as an argument)
  PAYMENTS_BASE_URL        the API's base URL (default ${DEFAULT_BASE_URL}, the local sandbox)
  PAYMENTS_SUB_PARTNER_ID  act for this sub-partner (a UUID; optional)

Options:
  --base-url <url>         the API's base URL (instead of PAYMENTS_BASE_URL)
  --sub-partner-id <uuid>  the sub-partner (instead of PAYMENTS_SUB_PARTNER_ID)
  ${ALLOW_WRITES_FLAG}           send writes (POST, PATCH) to a base URL that is not a sandbox
  --toolsets <list>        list these groups of tools, comma-separated: ${toolsetNames(tools).join(", ")}
                           (default: every API operation and the test mode's common ones)
  ${READ_ONLY_FLAG}              list only the tools that read, and refuse every write
  --dynamic                list three tools (search_operations, describe_operation,
                           call_operation) instead of one per operation
  --verbose                log a line per tool call (its status and time) to standard error
  --http                   serve Streamable HTTP at http://<host>:<port>/mcp instead of stdio
  --port <n>               with --http: the port (default ${DEFAULT_HTTP_PORT}; 0 picks a free one)
  --host <name>            with --http: the interface (default 127.0.0.1)
  --help, --version`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class StartError extends Error {}

function configuration(argv: string[], env: NodeJS.ProcessEnv) {
  if (argv.some((arg) => /^--api-?key(=|$)/i.test(arg))) {
    throw new StartError(
      "--api-key is not an option, since arguments show in the process list: set PAYMENTS_API_KEY in the server's environment instead",
    );
  }
  let values: ReturnType<typeof parse>["values"];
  try {
    ({ values } = parse(argv));
  } catch (error) {
    throw new StartError(
      `${(error as Error).message.split("\n")[0]} (payments-mcp --help lists the options)`,
    );
  }
  const apiKey = env.PAYMENTS_API_KEY;
  const baseUrl = values["base-url"] ?? (env.PAYMENTS_BASE_URL || DEFAULT_BASE_URL);
  const subPartnerId = values["sub-partner-id"] ?? (env.PAYMENTS_SUB_PARTNER_ID || undefined);
  if (values.help || values.version) return { values };
  if (apiKey === undefined || apiKey.trim() === "") {
    throw new StartError(
      "PAYMENTS_API_KEY is not set: put the partner's API key in the server's environment (a local sandbox takes any non-empty key)",
    );
  }
  const url = URL.parse(baseUrl);
  // Not quoted: it holds a password.
  if (url?.username || url?.password) {
    throw new StartError(
      "the base URL (--base-url or PAYMENTS_BASE_URL) holds credentials: give the API's URL alone (the key goes in PAYMENTS_API_KEY)",
    );
  }
  if (!/^https?:$/.test(url?.protocol ?? "")) {
    // One that does not parse is quoted without what comes before an `@`: a password.
    const shown = baseUrl.replace(/^([a-z][a-z\d+.-]*:\/\/)[^/?#]*@/i, "$1…@");
    const port = /^https?:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(baseUrl)?.[1];
    throw new StartError(
      port !== undefined && Number(port) > 65535
        ? `the base URL ${JSON.stringify(shown)} (--base-url or PAYMENTS_BASE_URL) has the port ${port}, past 65535: give the API's URL with its port, such as ${DEFAULT_BASE_URL}`
        : `the base URL ${JSON.stringify(shown)} (--base-url or PAYMENTS_BASE_URL) is not an absolute http: or https: URL, such as ${DEFAULT_BASE_URL}`,
    );
  }
  // The API's paths are appended to it: a query or fragment would swallow them.
  if (/[?#]/.test(baseUrl)) {
    throw new StartError(
      `the base URL ${JSON.stringify(baseUrl)} (--base-url or PAYMENTS_BASE_URL) has a query or fragment: give the URL the API's paths follow, such as ${DEFAULT_BASE_URL}`,
    );
  }
  if (subPartnerId !== undefined && !UUID.test(subPartnerId)) {
    throw new StartError(
      "the sub-partner (--sub-partner-id or PAYMENTS_SUB_PARTNER_ID) must be a UUID, such as 5a9d2e71-3c4b-4f6a-8d1e-2b7c9f0a3e58",
    );
  }
  const port = values.port === undefined ? DEFAULT_HTTP_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new StartError("--port must be a whole number from 0 to 65535");
  }
  // Which one was meant is not for the server to guess: --read-only used to win, unsaid.
  if (values["read-only"] && values["allow-writes"]) {
    throw new StartError(
      `${READ_ONLY_FLAG} and ${ALLOW_WRITES_FLAG} contradict each other (one refuses every write, the other sends writes to a server that is not a sandbox): give one of them`,
    );
  }
  if (!values.http && (values.port !== undefined || values.host !== undefined)) {
    throw new StartError("--port and --host go with --http (stdio is the default)");
  }
  let toolsets: string[] | undefined;
  if (values.toolsets !== undefined) {
    const parsed = parseToolsets(values.toolsets, tools);
    if ("error" in parsed) throw new StartError(parsed.error);
    toolsets = parsed.toolsets;
  }
  const options: PaymentsMcpOptions = {
    apiKey,
    baseUrl,
    allowWrites: values["allow-writes"] === true,
    verbose: values.verbose === true,
    readOnly: values["read-only"] === true,
    dynamic: values.dynamic === true,
    ...(toolsets !== undefined && { toolsets }),
    ...(subPartnerId !== undefined && { subPartnerId }),
  };
  return { values, options, port };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      "base-url": { type: "string" },
      "sub-partner-id": { type: "string" },
      "allow-writes": { type: "boolean" },
      toolsets: { type: "string" },
      "read-only": { type: "boolean" },
      dynamic: { type: "boolean" },
      verbose: { type: "boolean" },
      http: { type: "boolean" },
      port: { type: "string" },
      host: { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean" },
    },
  });
}

async function main(): Promise<void> {
  const { values, options, port } = configuration(process.argv.slice(2), process.env);
  if (values.help) return void console.log(USAGE);
  if (values.version) return void console.log(VERSION);
  if (!options) return;
  if (values.http) {
    const { serveHttp } = await import("./http.js");
    const running = await serveHttp({
      ...options,
      port,
      ...(values.host && { host: values.host }),
    });
    process.stderr.write(
      `payments-mcp ${VERSION}: Streamable HTTP at ${running.url}, for the API at ${options.baseUrl}\n`,
    );
    const stop = () => void running.close().then(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    return;
  }
  const { serveStdio } = await import("./stdio.js");
  const running = await serveStdio(options);
  process.stderr.write(`payments-mcp ${VERSION}: on stdio, for the API at ${options.baseUrl}\n`);
  // The MCP client closes our standard input to end the session, which ends once it is answered.
  void running.closed.then(() => process.exit(0));
  const stop = () => void running.close().finally(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  const line = redactText(message.split("\n")[0] ?? "", process.env.PAYMENTS_API_KEY ?? "");
  process.stderr.write(`payments-mcp cannot start: ${line}\n`);
  process.exit(2);
});
