/** The server's options, and the context every session's tool calls share. */
import { createPaymentsClient } from "@org/payments-client";
import type { CallContext } from "./call-tool.js";
import { idempotencyKeys } from "./idempotency.js";
import { MIN_KEY_LENGTH, redactText } from "./redact.js";
import { type SandboxState, sandboxProbe } from "./sandbox-probe.js";
import { sendWith } from "./send.js";
import { undiciFetch } from "./undici-fetch.js";

/** The local sandbox that `npm start` and `payments-mock --stateful` serve. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:4010";

export interface PaymentsMcpOptions {
  /** The partner's API key, sent as `X-API-Key`. Never shown in a result, log line or error. */
  apiKey: string;
  /** The API's base URL. Default `http://127.0.0.1:4010`, the local sandbox. */
  baseUrl?: string;
  /** Act for this sub-partner on the operations that take `X-SUB-PARTNER-ID`. */
  subPartnerId?: string;
  /** Send writes (POST, PATCH) to a base URL that is not a sandbox. Default false. */
  allowWrites?: boolean;
  /** Where log lines go. Default: standard error (standard output is the protocol's). */
  log?: (line: string) => void;
  /** Log a line per tool call too (its status and time). Default false. */
  verbose?: boolean;
  /**
   * The groups of tools to list: the spec's tags (`customers`, `autoramp-transactions`, …),
   * `test-mode`, or `all`. Default: every API operation and the test mode's common ones.
   */
  toolsets?: readonly string[];
  /** List only the tools that read, and refuse every write. Default false. */
  readOnly?: boolean;
  /** List three tools that find, describe and call the operations, instead of one per operation. */
  dynamic?: boolean;
}

export interface ServerContext extends CallContext {
  toolsets: readonly string[] | undefined;
  dynamic: boolean;
}

/** The context of a server; throws a TypeError naming the option when one is unusable. */
export function contextOf(options: PaymentsMcpOptions): ServerContext {
  const baseUrl = options.baseUrl ?? DEFAULT_BASE_URL;
  const { apiKey } = options;
  const client = createPaymentsClient({
    apiKey,
    baseUrl,
    fetch: undiciFetch,
    ...(options.subPartnerId !== undefined && { subPartnerId: options.subPartnerId }),
  });
  const write = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const log = (line: string) => write(`payments-mcp: ${redactText(line, apiKey)}`);
  const allowWrites = options.allowWrites === true;
  const readOnly = options.readOnly === true;
  const send = sendWith(client, apiKey, baseUrl);
  const probe = sandboxProbe(send, (state) =>
    log(stateLine(baseUrl, state, { allowWrites, readOnly })),
  );
  const logCall = options.verbose ? log : undefined;
  if (apiKey.length < MIN_KEY_LENGTH) {
    // Said as is: the line holds no key, and a short key could be a word of it.
    write(
      `payments-mcp: warning: the API key is ${apiKey.length} character${apiKey.length === 1 ? "" : "s"} long, under ${MIN_KEY_LENGTH}: easy to guess, fine for a local sandbox only`,
    );
  }
  return {
    apiKey,
    send,
    probe,
    allowWrites,
    readOnly,
    toolsets: options.toolsets,
    dynamic: options.dynamic === true,
    keys: idempotencyKeys(),
    baseUrl,
    log,
    logCall,
  };
}

function stateLine(
  baseUrl: string,
  state: SandboxState,
  mode: { allowWrites: boolean; readOnly: boolean },
): string {
  // --read-only refuses every write, whatever the server is.
  if (state.kind === "sandbox") {
    const writes = mode.readOnly ? "writes refused (--read-only)" : "writes allowed";
    return `${baseUrl} is a sandbox: ${writes}, test-mode tools listed`;
  }
  const writes = mode.readOnly
    ? "writes refused (--read-only)"
    : mode.allowWrites
      ? "writes allowed (--allow-writes)"
      : "writes refused";
  const open = state.kind === "unknown" ? "; asked again at the next write" : "";
  return `${baseUrl} is ${state.kind === "unknown" ? "not known to be" : "not"} a sandbox (${state.reason}): ${writes}${open}`;
}
