// The one record of a finished request: what finishedRequest makes of a request and its answer,
// for the request log and the readiness counts alike.
import type { ApiRequest } from "@org/payments-engine";
import { expect, it } from "vitest";
import { problemAnswer } from "../../src/answers/answer.js";
import { finishedRequest } from "../../src/request-log/index.js";

const request = (fields: Partial<ApiRequest> = {}): ApiRequest =>
  ({
    method: "post",
    path: "/customers",
    query: {},
    headers: { "x-api-key": "k", "idempotency-key": "key-1" },
    body: {},
    ...fields,
  }) as ApiRequest;

it("records the request, its answer and what acted on it", () => {
  const record = finishedRequest({
    request: request(),
    operationId: "createCustomer",
    at: 1_000,
    durationMs: 12.34567,
    answer: { status: 503, body: {}, headers: { "retry-after": "7" }, replayed: true },
    hit: { faultId: "f1", kind: "status" },
    requestId: "req-1",
  });
  expect(record).toEqual({
    at: 1_000,
    method: "POST",
    path: "/customers",
    operation_id: "createCustomer",
    status: 503,
    duration_ms: 12.346,
    idempotency_key: "key-1",
    replayed: true,
    fault_id: "f1",
    fault: "status",
    cursor: false,
    key_reused: false,
    retry_after_s: 7,
    request_id: "req-1",
    deprecated: [],
  });
});

it("records a dropped answer as no status, a page past the first, a reused key", () => {
  const dropped = finishedRequest({
    request: request({ method: "get", query: { cursor: "c" }, headers: {} }),
    operationId: "listCustomers",
    at: 0,
    durationMs: 0,
    answer: { status: 0, body: undefined, drop: true },
  });
  expect(dropped).toMatchObject({ status: null, cursor: true, idempotency_key: null, fault: null });
  const reused = finishedRequest({
    request: request(),
    operationId: "createCustomer",
    at: 0,
    durationMs: 0,
    answer: problemAnswer(422, "idempotency-key-reused", "Idempotency key reused", []),
  });
  expect(reused.key_reused).toBe(true);
  expect(reused.retry_after_s).toBeNull();
});
