/**
 * The reliability layer around each openapi-fetch call: auth, idempotency and sub-partner
 * headers, a per-attempt timeout that covers the response body, and retries. An attempt is one
 * whole openapi-fetch call (send, then read the body), so a timeout while the body is read is
 * retried like any other. The first attempt sends openapi-fetch's own Request untouched but for
 * headers, so a call that succeeds at once costs next to nothing over bare openapi-fetch.
 */
import { attemptSignal } from "./attempt-signal.js";
import {
  PaymentsConnectionError,
  PaymentsError,
  PaymentsResponseError,
  PaymentsTimeoutError,
} from "./errors.js";
import { redactError, redactText } from "./redact.js";
import {
  backoffDelay,
  isRetryableStatus,
  MAX_RETRY_AFTER_MS,
  retryAfterDelay,
} from "./retry-policy.js";

export interface TransportConfig {
  apiKey: string;
  fetch: (input: Request) => Promise<Response>;
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
  maxRetries: number;
  /** The caller's signal. */
  signal: AbortSignal | undefined;
  /** Recorded by the first attempt: the key every attempt of the call is sent with. */
  idempotencyKey?: string;
}

/** What one attempt sent and got, held until the attempt settles. */
interface InFlight {
  // undici follows a Request's signal through a weak reference: holding the Request here keeps
  // the attempt's timeout and the caller's abort wired to the fetch until the attempt is over.
  request?: Request;
  response?: Response;
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
    const attempt = attemptSignal(call.signal, call.timeoutMs);
    const inFlight: InFlight = {};
    let delay: number;
    try {
      const fetch = (request: Request) => send(config, call, request, inFlight);
      // The race settles the attempt when its signal aborts, even if the fetch never hears of it.
      const result = await Promise.race([run(attempt.signal, fetch), attempt.aborted]);
      const { status } = result.response;
      if (!retriesLeft || !isRetryableStatus(status)) return result;
      const asked = retryAfterDelay(result.response.headers.get("Retry-After"), config.now());
      if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) return result;
      delay = asked ?? backoffDelay(n, config.random);
    } catch (error) {
      const failure = attemptFailure(call, error, attempt.timedOut(), inFlight, config.apiKey);
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
  inFlight: InFlight,
): Promise<Response> {
  inFlight.request = request;
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
  const response = await config.fetch(request);
  inFlight.response = response;
  return response.ok ? response : withRedactedBody(response, config.apiKey);
}

/** An error response whose body no longer holds the API key, should the API echo it. */
async function withRedactedBody(response: Response, apiKey: string): Promise<Response> {
  const text = await response.text();
  const { status, statusText, headers } = response;
  // A 304 (or any status that may carry no body) must be rebuilt without one.
  return new Response(text === "" ? null : redactText(text, apiKey), {
    status,
    statusText,
    headers,
  });
}

/** What an attempt that threw means, as the error the caller would get. */
function attemptFailure(
  call: Call,
  error: unknown,
  timedOut: boolean,
  inFlight: InFlight,
  apiKey: string,
): unknown {
  if (call.signal?.aborted) return call.signal.reason;
  if (timedOut)
    return new PaymentsTimeoutError(call.operation, call.timeoutMs, call.idempotencyKey);
  if (error instanceof PaymentsError) return error;
  redactError(error, apiKey);
  const { response } = inFlight;
  // openapi-fetch parses a 2xx body as JSON; a body that is not JSON (an HTML page) is no
  // connection failure: the request arrived, so it is not retried.
  if (response?.ok && error instanceof SyntaxError) {
    return new PaymentsResponseError(call.operation, response.status, call.idempotencyKey, error);
  }
  return new PaymentsConnectionError(call.operation, error, call.idempotencyKey);
}
