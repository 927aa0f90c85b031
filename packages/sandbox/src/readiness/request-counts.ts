// The readiness counts of finished API requests, written in the transaction that records them:
// calls by operation and status, what a request showed beyond its status (a POST without a key, a
// key reused, a page past the first, a deprecated thing used), and the faults that answered requests and whether the
// integration recovered. A recovery is decided as the requests arrive, from the faults still
// pending (a handful of rows), never by reading the request log.
import type { FinishedRequest } from "../request-log/index.js";
import type { CountRows, ReadinessCount } from "./readiness-rows.js";

/** The fault id a rate-limit 429 is counted under (it is no rule of the partner's). */
const RATE_LIMIT_FAULT = "rate_limit";

/** A fault that answered a request and has not been recovered from yet: what recovers it. */
interface PendingFault {
  fault_id: string;
  operation_id: string;
  method: string;
  path: string;
  idempotency_key: string | null;
  /** For a 429: the time (ms, sandbox) from which the next request counts as a recovery. */
  not_before: number | null;
  /** The fault's coverage record (its counter's detail). */
  record: string;
}

const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300;

/** Calls, facts and faults of the requests, added to the partner's counters. */
export async function countRequests(
  rows: CountRows,
  requests: readonly FinishedRequest[],
): Promise<void> {
  const counts: ReadinessCount[] = [];
  for (const request of requests) counts.push(...callCounts(request));
  // The store changes each counter once, however many requests it counts.
  await rows.addCounts(counts);
  const faulted = requests.some((request) => request.fault !== null);
  const pending = await pendingFaults(rows, faulted);
  if (pending.length === 0 && !faulted) return;
  await followFaults(rows, pending, requests);
}

function callCounts(request: FinishedRequest): ReadinessCount[] {
  const operation = request.operation_id;
  const status = request.status === null ? "no answer" : String(request.status);
  const counts: ReadinessCount[] = [{ kind: "call", name: operation, detail: status, n: 1 }];
  const fact = (name: string) => counts.push({ kind: "fact", name, detail: operation, n: 1 });
  if (request.method.toUpperCase() === "POST" && request.idempotency_key === null) {
    fact("post_without_key");
  }
  if (request.key_reused) fact("key_reused");
  if (request.cursor && isSuccess(request.status)) fact("next_page");
  // Each deprecated thing used, by operation, with when it goes away and what replaces it.
  for (const used of request.deprecated) {
    const detail = JSON.stringify({ operation, ...used });
    counts.push({ kind: "fact", name: "deprecated", detail, n: 1 });
  }
  return counts;
}

async function pendingFaults(rows: CountRows, faulted: boolean): Promise<PendingFault[]> {
  const stored = await rows.countsOf("pending");
  if (stored.length === 0 && !faulted) return [];
  return stored.map((count) => JSON.parse(count.detail) as PendingFault);
}

/**
 * Goes through the requests in order: each fault that answered one becomes pending (its record
 * made, not recovered); a later request that recovers a pending fault marks its record recovered.
 */
async function followFaults(
  rows: CountRows,
  before: PendingFault[],
  requests: readonly FinishedRequest[],
): Promise<void> {
  const pending = new Map(before.map((fault) => [pendingKey(fault), fault]));
  /** Pending faults resolved, or hit again (a 429's Retry-After anew), in these requests. */
  const changed = new Set<string>();
  const records = new Map<string, { record: string; recovered: boolean }>();
  for (const request of requests) {
    for (const [key, fault] of pending) {
      const outcome = recovery(fault, request);
      if (outcome === undefined) continue;
      pending.delete(key);
      changed.add(key);
      if (outcome) records.set(fault.fault_id, { record: fault.record, recovered: true });
    }
    const fault = faultOf(request);
    if (fault !== undefined) {
      const key = pendingKey(fault);
      pending.set(key, fault);
      changed.add(key);
      if (!records.has(fault.fault_id)) {
        records.set(fault.fault_id, { record: fault.record, recovered: false });
      }
    }
  }
  // A record once recovered stays so: raised to 2, never lowered to 1.
  await rows.raiseCounts(
    [...records].map(([id, { record, recovered }]) => ({
      kind: "fault",
      name: id,
      detail: record,
      n: recovered ? 2 : 1,
    })),
  );
  const known = new Set(before.map(pendingKey));
  await rows.removeCounts(
    "pending",
    [...changed].filter((key) => known.has(key)),
  );
  await rows.raiseCounts(
    [...pending]
      .filter(([key]) => !known.has(key) || changed.has(key))
      .map(([key, fault]) => ({ kind: "pending", name: key, detail: JSON.stringify(fault), n: 1 })),
  );
}

/** One pending entry per fault and what recovers it. */
function pendingKey(fault: PendingFault): string {
  return JSON.stringify([fault.fault_id, fault.method, fault.path, fault.idempotency_key]);
}

/** The fault a request was answered by, pending until recovered; undefined when none was. */
function faultOf(request: FinishedRequest): PendingFault | undefined {
  if (request.fault === null) return undefined;
  // A delay answered in the end: pending too, since a caller that timed out never saw it.
  const rateLimited = request.fault === "rate_limit" || request.status === 429;
  const id = request.fault_id ?? (request.fault === "rate_limit" ? RATE_LIMIT_FAULT : undefined);
  if (id === undefined) return undefined;
  return {
    fault_id: id,
    operation_id: request.operation_id,
    method: request.method.toUpperCase(),
    path: request.path,
    idempotency_key: request.idempotency_key,
    not_before: rateLimited ? request.at + (request.retry_after_s ?? 0) * 1000 : null,
    record: JSON.stringify({
      operation_id: request.operation_id,
      kind: request.fault,
      status: request.status,
    }),
  };
}

/**
 * Whether the request recovers the fault (true), shows it was not recovered from (false), or
 * says nothing of it (undefined). A 429: the next request, recovered when it came after
 * Retry-After. A POST: a request of the same operation with the same IDEMPOTENCY-KEY answered
 * 2xx. A GET: the same request answered 2xx.
 */
function recovery(fault: PendingFault, request: FinishedRequest): boolean | undefined {
  if (fault.not_before !== null) return request.at >= fault.not_before;
  if (!isSuccess(request.status)) return undefined;
  if (fault.method === "POST") {
    return request.operation_id === fault.operation_id &&
      fault.idempotency_key !== null &&
      request.idempotency_key === fault.idempotency_key
      ? true
      : undefined;
  }
  return request.method.toUpperCase() === fault.method && request.path === fault.path
    ? true
    : undefined;
}
