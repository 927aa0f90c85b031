/**
 * The reliability layer, as the custom `fetch` that openapi-fetch calls once per call: auth,
 * idempotency and sub-partner headers, then attempts with a per-attempt timeout and retries.
 * The first attempt sends openapi-fetch's own Request untouched but for headers, so a call
 * that succeeds at once costs next to nothing over bare openapi-fetch.
 */
import { type AttemptSignal, attemptSignal } from "./attempt-signal.js";
import { PaymentsConnectionError, PaymentsError, PaymentsTimeoutError } from "./errors.js";
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
  /** Recorded by `send`: the key the call was sent with. */
  idempotencyKey?: string;
  /** Recorded as openapi-fetch serializes it: the body to send again on a retry. */
  body?: BodyInit;
}

const IDEMPOTENCY_KEY = "IDEMPOTENCY-KEY";
const SUB_PARTNER_ID = "X-SUB-PARTNER-ID";

/**
 * Runs one openapi-fetch call through the transport. `run` gets the first attempt's signal
 * and the `fetch` to use. The attempt's timeout also covers reading the response body, which
 * openapi-fetch does after `fetch` returns, so the timer lives until `run` settles.
 */
export async function perform<T>(
  config: TransportConfig,
  call: Call,
  run: (signal: AbortSignal, fetch: (request: Request) => Promise<Response>) => Promise<T>,
): Promise<T> {
  let attempt = attemptSignal(call.signal, call.timeoutMs);
  const nextAttempt = () => {
    attempt.dispose();
    attempt = attemptSignal(call.signal, call.timeoutMs);
    return attempt;
  };
  let responded = false;
  const fetch = async (request: Request) => {
    const response = await send(config, call, request, attempt, nextAttempt);
    responded = true;
    return response;
  };
  try {
    return await run(attempt.signal, fetch);
  } catch (error) {
    if (error instanceof PaymentsError) throw error;
    if (call.signal?.aborted) throw call.signal.reason;
    if (attempt.timedOut()) {
      throw new PaymentsTimeoutError(call.operation, call.timeoutMs, call.idempotencyKey);
    }
    // The connection broke while openapi-fetch read the body; a parse error is not that.
    if (responded && !(error instanceof SyntaxError)) {
      throw new PaymentsConnectionError(call.operation, error, call.idempotencyKey);
    }
    throw error;
  } finally {
    attempt.dispose();
  }
}

async function send(
  config: TransportConfig,
  call: Call,
  request: Request,
  first: AttemptSignal,
  nextAttempt: () => AttemptSignal,
): Promise<Response> {
  const { headers } = request;
  headers.set("X-API-Key", config.apiKey);
  if (call.method === "POST") {
    // One key per call, reused by every retry, so the API processes the call at most once.
    call.idempotencyKey = headers.get(IDEMPOTENCY_KEY) ?? crypto.randomUUID();
    headers.set(IDEMPOTENCY_KEY, call.idempotencyKey);
  }
  if (call.subPartnerId !== undefined && !headers.has(SUB_PARTNER_ID)) {
    headers.set(SUB_PARTNER_ID, call.subPartnerId);
  }
  let attempt = first;
  let current = request;
  for (let n = 0; ; n++) {
    const retriesLeft = n < call.maxRetries;
    let delay: number;
    try {
      const response = await config.fetch(current);
      if (!retriesLeft || !isRetryableStatus(response.status)) return response;
      const asked = retryAfterDelay(response.headers.get("Retry-After"), config.now());
      if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) return response;
      delay = asked ?? backoffDelay(n, config.random);
      await response.body?.cancel();
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason;
      const failure = attempt.timedOut()
        ? new PaymentsTimeoutError(call.operation, call.timeoutMs, call.idempotencyKey)
        : new PaymentsConnectionError(call.operation, error, call.idempotencyKey);
      if (!retriesLeft) throw failure;
      delay = backoffDelay(n, config.random);
    }
    await config.sleep(delay, call.signal);
    attempt = nextAttempt();
    // The sent Request's body stream is used up: resend the serialized body.
    current = new Request(request, { body: call.body ?? null, signal: attempt.signal });
  }
}
