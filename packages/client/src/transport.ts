/**
 * The reliability layer around each openapi-fetch call: auth, idempotency and sub-partner
 * headers, a per-attempt timeout that covers the response body, and retries. An attempt is one
 * whole openapi-fetch call (send, then read the body), so a timeout while the body is read is
 * retried like any other. The first attempt sends openapi-fetch's own Request untouched but for
 * headers, so a call that succeeds at once costs next to nothing over bare openapi-fetch.
 */
import { Attempt } from "./attempt.js";
import { causeOf, originOf } from "./error-detail.js";
import {
  PaymentsConnectionError,
  PaymentsError,
  PaymentsResponseError,
  PaymentsTimeoutError,
} from "./errors.js";
import { redactBody, redactError } from "./redact.js";
import {
  backoffDelay,
  isRetryableStatus,
  MAX_RETRY_AFTER_MS,
  retryAfterDelay,
} from "./retry-policy.js";

export interface TransportConfig {
  apiKey: string;
  /** Sends one attempt's Request; `signal` is the attempt's, already in the Request or not. */
  fetch: (request: Request, signal: AbortSignal) => Promise<Response>;
  /**
   * Whether `fetch` and the body it returns give up as soon as the attempt's signal aborts, as the
   * platform's fetch does. A custom fetch may not, so the attempt then stops waiting by itself.
   */
  settlesOnAbort: boolean;
  /** Seams for tests: how to wait, where randomness and the time come from. */
  sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
  random: () => number;
  now: () => number;
}

/** One call as the transport needs it. */
export interface Call {
  method: string;
  operation: string;
  /** Sent when the operation takes the header and the caller did not set it. */
  subPartnerId: string | undefined;
  timeoutMs: number;
  /** Where `timeoutMs` came from, for the message of a timeout. */
  timeoutLimit: "call" | "client";
  maxRetries: number;
  /** The caller's signal. */
  signal: AbortSignal | undefined;
  /** Recorded by the first attempt: the key every attempt of the call is sent with. */
  idempotencyKey?: string;
}

export const IDEMPOTENCY_KEY = "IDEMPOTENCY-KEY";
export const SUB_PARTNER_ID = "X-SUB-PARTNER-ID";

/**
 * Runs one call: `run` is the openapi-fetch call, given the attempt's signal and the `fetch` to
 * use; it runs once per attempt. Resolves with the last attempt's result; rejects only with a
 * PaymentsError or, when the caller aborts, the caller's abort reason.
 */
export async function perform<T extends { response: Response }>(
  config: TransportConfig,
  call: Call,
  run: (signal: AbortSignal, fetch: (request: Request) => Promise<Response>) => Promise<T>,
): Promise<T> {
  for (let n = 0; ; n++) {
    const retriesLeft = n < call.maxRetries;
    const attempt = new Attempt(call.signal, call.timeoutMs);
    let delay: number;
    try {
      const fetch = (request: Request) => send(config, call, request, attempt);
      const work = run(attempt.signal, fetch);
      const result = await (config.settlesOnAbort ? work : attempt.settle(work));
      if (!retriesLeft || !isRetryableStatus(result.response.status)) return result;
      const asked = retryAfterDelay(result.response.headers.get("Retry-After"), config.now());
      if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) return result;
      delay = asked ?? backoffDelay(n, config.random);
    } catch (error) {
      const failure = attemptFailure(call, error, attempt, n + 1, config.apiKey);
      const retryable =
        failure instanceof PaymentsTimeoutError || failure instanceof PaymentsConnectionError;
      if (!retriesLeft || !retryable) throw failure;
      delay = backoffDelay(n, config.random);
    } finally {
      attempt.dispose();
    }
    await config.sleep(delay, call.signal);
  }
}

async function send(
  config: TransportConfig,
  call: Call,
  request: Request,
  attempt: Attempt,
): Promise<Response> {
  attempt.request = request;
  const { headers } = request;
  headers.set("X-API-Key", config.apiKey);
  if (call.method === "POST") {
    // One key per call, reused by every attempt, so the API processes the call at most once.
    call.idempotencyKey ??= headers.get(IDEMPOTENCY_KEY) ?? crypto.randomUUID();
    headers.set(IDEMPOTENCY_KEY, call.idempotencyKey);
  }
  if (call.subPartnerId !== undefined && !headers.has(SUB_PARTNER_ID)) {
    headers.set(SUB_PARTNER_ID, call.subPartnerId);
  }
  const response = await config.fetch(request, attempt.signal);
  attempt.response = response;
  // A browser's redirect is an opaque one, of status 0: it has no body to redact, and no Response
  // can be built with its status.
  return response.ok || !response.status ? response : withRedactedBody(response, config.apiKey);
}

/** An error response whose body no longer holds the API key, should the API echo it. */
async function withRedactedBody(response: Response, apiKey: string): Promise<Response> {
  const text = await response.text();
  // A 304 (or any status that may carry no body) must be rebuilt without one. The response
  // serves as its own init: its status, status text and headers.
  return new Response(text ? redactBody(text, apiKey) : null, response);
}

/** What an attempt that threw, the `made`-th of the call, means as the error the caller gets. */
function attemptFailure(
  call: Call,
  error: unknown,
  attempt: Attempt,
  made: number,
  apiKey: string,
): unknown {
  if (call.signal?.aborted) return call.signal.reason;
  const { request, response } = attempt;
  const origin = request ? originOf(request.url) : "the API";
  if (attempt.timedOut) {
    const phase = response ? "reading the response body" : "waiting for the response";
    const attempts = `${made} attempt${made > 1 ? "s" : ""}`;
    return new PaymentsTimeoutError(
      call.operation,
      call.timeoutMs,
      call.idempotencyKey,
      `${phase} from ${origin} (the ${call.timeoutLimit}'s timeoutMs, per attempt; ${attempts})`,
    );
  }
  if (error instanceof PaymentsError) return error;
  redactError(error, apiKey);
  // openapi-fetch parses a 2xx body as JSON; a body that is not JSON (an HTML page), or that its
  // Content-Encoding does not decode (zlib's, brotli's or zstd's error code), is no connection
  // failure: the answer arrived, so it is not retried.
  if (
    response &&
    (error instanceof SyntaxError
      ? response.ok
      : /^(Z|ERR_|ZSTD)_/.test(causeOf(error).code as string))
  ) {
    return new PaymentsResponseError(call.operation, response.status, call.idempotencyKey, error);
  }
  const failure = new PaymentsConnectionError(call.operation, error, call.idempotencyKey, origin);
  // The message quotes the cause, which was redacted above only if it is an Error.
  redactError(failure, apiKey);
  return failure;
}
