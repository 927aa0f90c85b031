import { bodyDetail, causeOf, quoted } from "./error-detail.js";

/**
 * Errors the client raises. None of them holds the request or its headers; the client scrubs the
 * API key out of what they take from the response or the platform (body, request id, cause)
 * before it builds them, so the key cannot leak through an error, its message, its JSON or
 * `util.inspect`.
 */

/** The base class of every error the client raises. */
export class PaymentsError extends Error {
  /** The operationId, or `METHOD /path` for an operation without one. */
  declare readonly operation: string;
  /** The `IDEMPOTENCY-KEY` the request was sent with (POST only): reuse it to retry safely. */
  declare readonly idempotencyKey: string | undefined;

  constructor(message: string, operation: string, idempotencyKey?: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.operation = operation;
    this.idempotencyKey = idempotencyKey;
  }
}

/** The API answered with a non-2xx status. */
export class PaymentsApiError extends PaymentsError {
  declare readonly status: number;
  /** The response body: parsed JSON, else its text (the API does not specify error bodies). */
  declare readonly body: unknown;
  /** The response's `x-request-id` (or `request-id`) header, to quote to support. */
  declare readonly requestId: string | undefined;
  /** True when the answer was replayed for a repeated `IDEMPOTENCY-KEY` (`Idempotent-Replayed`). */
  declare readonly replayed: boolean;

  /**
   * The message reads `createCustomer failed with HTTP 422: body email: must be an email address
   * (request id …)`: the first thing the body says went wrong, bounded in length.
   */
  constructor(init: {
    status: number;
    body: unknown;
    operation: string;
    idempotencyKey?: string | undefined;
    requestId?: string | undefined;
    replayed?: boolean | undefined;
  }) {
    // A redirect (a 3xx, or a browser's opaque one: status 0) is not followed, since fetch would
    // send X-API-Key on to wherever it points.
    const detail = init.status < 400 ? "a redirect, not followed" : bodyDetail(init.body);
    const { requestId, replayed = false } = init;
    const id = requestId ? `request id ${quoted(requestId)}` : "";
    const noted = replayed ? (id ? `${id}, replayed` : "replayed") : id;
    super(
      `${init.operation} failed with HTTP ${init.status}${detail ? `: ${quoted(detail)}` : ""}${
        noted && ` (${noted})`
      }`,
      init.operation,
      init.idempotencyKey,
    );
    this.status = init.status;
    this.body = init.body;
    this.requestId = requestId;
    this.replayed = replayed;
  }
}

/** An attempt took longer than `timeoutMs`, and no retry was left. */
export class PaymentsTimeoutError extends PaymentsError {
  declare readonly timeoutMs: number;

  /**
   * `circumstances` says which limit fired and when, after the time: `waiting for the response
   * from https://api.example.com:443 (the call's timeoutMs, per attempt; 3 attempts)`.
   */
  constructor(
    operation: string,
    timeoutMs: number,
    idempotencyKey?: string,
    circumstances?: string,
  ) {
    super(
      `${operation} timed out after ${timeoutMs} ms${circumstances ? ` ${circumstances}` : ""}`,
      operation,
      idempotencyKey,
    );
    this.timeoutMs = timeoutMs;
  }
}

/** The API could not be reached (refused, reset, DNS…), and no retry was left. */
export class PaymentsConnectionError extends PaymentsError {
  /**
   * The message names `origin` (where the request went), the system error code when the platform
   * gives one, and the cause's messages: `listCustomers could not reach http://127.0.0.1:4010
   * (ECONNREFUSED): fetch failed: connect ECONNREFUSED 127.0.0.1:4010`.
   */
  constructor(
    operation: string,
    cause: unknown,
    idempotencyKey: string | undefined,
    origin = "the API",
  ) {
    const { code, text } = causeOf(cause);
    super(
      `${operation} could not reach ${origin}${code ? ` (${code})` : ""}: ${text}`,
      operation,
      idempotencyKey,
      cause,
    );
  }
}

/**
 * The API answered, but its body could not be read: a 2xx whose body is not JSON (an HTML
 * maintenance page, say), or any answer whose body its `Content-Encoding` does not decode (bytes
 * that are not gzip under `gzip`). Not retried: the request arrived. Retry it yourself with the
 * same `idempotencyKey`.
 */
export class PaymentsResponseError extends PaymentsError {
  declare readonly status: number;

  constructor(
    operation: string,
    status: number,
    idempotencyKey: string | undefined,
    cause: unknown,
  ) {
    // Only a decoder's error has a code: `Z_DATA_ERROR` and the like.
    const { code, text } = causeOf(cause);
    super(
      `${operation} got HTTP ${status} with a body that ${code ? `could not be decoded (${code}): ${text}` : "is not JSON"}`,
      operation,
      idempotencyKey,
      cause,
    );
    this.status = status;
  }
}
