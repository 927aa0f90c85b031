import { bodyDetail, causeChain, quoted } from "./error-detail.js";

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
   * (request id …)`: the first thing the body says went wrong (its first `errors` entry, else its
   * `detail`, `title` or `message`), bounded in length.
   */
  constructor(init: {
    status: number;
    body: unknown;
    operation: string;
    idempotencyKey?: string | undefined;
    requestId?: string | undefined;
    replayed?: boolean | undefined;
  }) {
    const detail = bodyDetail(init.body);
    const notes = [
      ...(init.requestId ? [`request id ${quoted(init.requestId, 100)}`] : []),
      ...(init.replayed ? ["replayed"] : []),
    ];
    super(
      `${init.operation} failed with HTTP ${init.status}${
        detail === undefined ? "" : `: ${quoted(detail)}`
      }${notes.length > 0 ? ` (${notes.join(", ")})` : ""}`,
      init.operation,
      init.idempotencyKey,
    );
    this.status = init.status;
    this.body = init.body;
    this.requestId = init.requestId;
    this.replayed = init.replayed ?? false;
  }
}

/** Which limit fired, and when: what a timeout's message explains. */
export interface TimeoutCircumstances {
  /** `timeoutMs` came from the call's options, or from the client's (or its default). */
  limit: "call" | "client";
  /** The attempt was waiting for the response's status and headers, or reading its body. */
  phase: "response" | "body";
  /** Attempts made in all, this one included. */
  attempts: number;
  /** Where the request went: scheme, host and port. */
  origin?: string | undefined;
}

/** An attempt took longer than `timeoutMs`, and no retry was left. */
export class PaymentsTimeoutError extends PaymentsError {
  declare readonly timeoutMs: number;

  constructor(
    operation: string,
    timeoutMs: number,
    idempotencyKey?: string,
    circumstances?: TimeoutCircumstances,
  ) {
    super(
      circumstances === undefined
        ? `${operation} timed out after ${timeoutMs} ms`
        : timeoutMessage(operation, timeoutMs, circumstances),
      operation,
      idempotencyKey,
    );
    this.timeoutMs = timeoutMs;
  }
}

function timeoutMessage(
  operation: string,
  timeoutMs: number,
  { limit, phase, attempts, origin }: TimeoutCircumstances,
): string {
  const waiting = phase === "body" ? "reading the response body" : "waiting for the response";
  const from = origin === undefined ? "" : ` from ${origin}`;
  const option = limit === "call" ? "the call's timeoutMs" : "the client's timeoutMs";
  const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
  return `${operation} timed out after ${timeoutMs} ms ${waiting}${from} (${option}, per attempt; ${tries})`;
}

/** The API could not be reached (refused, reset, DNS…), and no retry was left. */
export class PaymentsConnectionError extends PaymentsError {
  /**
   * The message names where the request went, the system error code when the platform gives one,
   * and the cause's messages: `listCustomers could not reach http://127.0.0.1:4010
   * (ECONNREFUSED): fetch failed: connect ECONNREFUSED 127.0.0.1:4010`.
   */
  constructor(
    operation: string,
    cause: unknown,
    idempotencyKey: string | undefined,
    where?: { origin?: string | undefined; code?: string | undefined },
  ) {
    const code = where?.code === undefined ? "" : ` (${where.code})`;
    super(
      `${operation} could not reach ${where?.origin ?? "the API"}${code}: ${causeChain(cause)}`,
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
