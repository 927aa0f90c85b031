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

  constructor(init: {
    status: number;
    body: unknown;
    operation: string;
    idempotencyKey?: string | undefined;
    requestId?: string | undefined;
  }) {
    // The body's `message`, if it has one, is the likeliest human summary of what went wrong.
    const message = (init.body as { message?: unknown } | undefined)?.message;
    super(
      `${init.operation} failed with HTTP ${init.status}${
        typeof message === "string" ? `: ${message.slice(0, 200)}` : ""
      }${init.requestId ? ` (request id ${init.requestId})` : ""}`,
      init.operation,
      init.idempotencyKey,
    );
    this.status = init.status;
    this.body = init.body;
    this.requestId = init.requestId;
  }
}

/** An attempt took longer than `timeoutMs`, and no retry was left. */
export class PaymentsTimeoutError extends PaymentsError {
  declare readonly timeoutMs: number;

  constructor(operation: string, timeoutMs: number, idempotencyKey?: string) {
    super(`${operation} timed out after ${timeoutMs} ms`, operation, idempotencyKey);
    this.timeoutMs = timeoutMs;
  }
}

/** The API could not be reached (refused, reset, DNS…), and no retry was left. */
export class PaymentsConnectionError extends PaymentsError {
  constructor(operation: string, cause: unknown, idempotencyKey: string | undefined) {
    super(
      `${operation} could not reach the API: ${String(cause)}`,
      operation,
      idempotencyKey,
      cause,
    );
  }
}

/**
 * The API answered with a 2xx whose body could not be read as JSON (an HTML maintenance page,
 * say). Not retried: the request arrived. Retry it yourself with the same `idempotencyKey`.
 */
export class PaymentsResponseError extends PaymentsError {
  declare readonly status: number;

  constructor(
    operation: string,
    status: number,
    idempotencyKey: string | undefined,
    cause: unknown,
  ) {
    super(
      `${operation} got HTTP ${status} with a body that is not JSON`,
      operation,
      idempotencyKey,
      cause,
    );
    this.status = status;
  }
}
