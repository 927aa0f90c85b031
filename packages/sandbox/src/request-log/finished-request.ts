// One record of a finished API request: made once, by finishedRequest, when the request is
// answered (or refused by the engine before the sandbox saw it), then appended to the partner's
// request log and counted for its readiness report.
import type { ApiRequest, DeprecatedUse } from "@org/payments-engine";
import type { Answer } from "../answers/answer.js";
import type { FaultHit, FaultKind } from "../faults/index.js";

export interface FinishedRequest {
  /** When it arrived: sandbox time, ms since the epoch (the log lists it as a date-time). */
  at: number;
  method: string;
  /** The path, without the query. */
  path: string;
  operation_id: string;
  /** The status answered; null when the connection was closed with no answer (a drop). */
  status: number | null;
  /** Real time from the request's routing to its answer (a fault's delay included). */
  duration_ms: number;
  idempotency_key: string | null;
  /** The first answer to its IDEMPOTENCY-KEY, sent again. */
  replayed: boolean;
  /** The fault rule that acted on it, if one did. */
  fault_id: string | null;
  /** What acted on it: a fault's effect, or the rate limit; null when nothing did. */
  fault: FaultKind | null;
  /** Its query had a cursor: a page past the first. */
  cursor: boolean;
  /** It was refused because its IDEMPOTENCY-KEY was first used for another request. */
  key_reused: boolean;
  /** The Retry-After (seconds) it was answered with, if any. */
  retry_after_s: number | null;
  /** The X-Request-Id it was answered with; null in an entry logged before the log kept it. */
  request_id: string | null;
  /** The deprecated operation, parameters and body fields it used. */
  deprecated: readonly DeprecatedUse[];
}

/** What the request log keeps of a finished request (no body, no API key): GET /_sandbox/requests. */
export type KeptRequest = Omit<
  FinishedRequest,
  "cursor" | "key_reused" | "retry_after_s" | "deprecated"
>;

/** A request as it finished: what it was, when it arrived, its answer, what acted on it. */
interface Finished {
  request: ApiRequest;
  operationId: string;
  /** Sandbox time it arrived, ms. */
  at: number;
  durationMs: number;
  answer: Answer;
  hit?: FaultHit | undefined;
  /** The X-Request-Id it was answered with, when the server gave one. */
  requestId?: string | undefined;
  /** The deprecated things it used (see deprecatedUses). */
  deprecated?: readonly DeprecatedUse[];
}

export function finishedRequest({
  request,
  operationId,
  at,
  durationMs,
  answer,
  hit,
  requestId,
  deprecated = [],
}: Finished): FinishedRequest {
  const retryAfter = Number(answer.headers?.["retry-after"]);
  return {
    at,
    method: request.method.toUpperCase(),
    path: request.path,
    operation_id: operationId,
    status: answer.drop ? null : answer.status,
    duration_ms: Math.round(durationMs * 1000) / 1000,
    idempotency_key: headerOf(request, "idempotency-key") ?? null,
    replayed: answer.replayed === true,
    fault_id: hit?.faultId ?? null,
    fault: hit?.kind ?? null,
    cursor: request.query.cursor !== undefined,
    key_reused: answer.status === 422 && problemType(answer).endsWith(":idempotency-key-reused"),
    retry_after_s: Number.isFinite(retryAfter) ? retryAfter : null,
    request_id: requestId ?? null,
    deprecated,
  };
}

function problemType(answer: Answer): string {
  const body = answer.body as { type?: unknown } | undefined;
  return typeof body?.type === "string" ? body.type : "";
}

/** A request header's value; undefined when it is absent or empty. */
export function headerOf(request: ApiRequest, name: string): string | undefined {
  const value = request.headers[name];
  return value === undefined || value === "" ? undefined : value;
}
