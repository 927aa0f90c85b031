// What a partner's counters show, read into the report's coverage and into the evidence its
// checks are decided on. Pure: the counters in, the coverage out; no log is read.
import { WEBHOOK_TOPICS } from "@org/payments-types";
import type { FaultKind } from "../faults/index.js";
import { API_OPERATIONS } from "../generated/api-operations.js";
import type { ReadinessCount } from "./readiness-rows.js";

/** The resource kinds whose states a report lists, by their collection. */
const STATE_KINDS = {
  customers: "customer",
  identifications: "identification",
  autoramps: "autoramp",
  fiat_addresses: "fiat_address",
  autoramp_transactions: "autoramp_transaction",
} as const;

type StateKind = (typeof STATE_KINDS)[keyof typeof STATE_KINDS];

interface OperationCoverage {
  calls: number;
  statuses: Record<string, number>;
}

interface TopicCoverage {
  subscribed: boolean;
  /** Attempts sent to a receiver. */
  delivered: number;
  /** Attempts the receiver answered 2xx. */
  acknowledged: number;
  /** Events whose last attempt failed. */
  failing: number;
}

export interface FaultCoverage {
  fault_id: string;
  operation_id: string;
  kind: FaultKind;
  status: number | null;
  recovered: boolean;
}

interface Coverage {
  operations: Record<string, OperationCoverage>;
  topics: Record<string, TopicCoverage>;
  states: Record<StateKind, string[]>;
  faults: FaultCoverage[];
}

/** What a report's checks are decided on. */
export interface Evidence {
  /** `sandbox`: the sandbox's counters; `live`: a validating proxy's report (operations only). */
  source: "sandbox" | "live";
  coverage: Coverage;
  /** States reached, by `kind` and by `kind/variant` (customer/Person). */
  reached: Map<string, Set<string>>;
  /**
   * Facts of requests (`post_without_key`, `key_reused`, `next_page`), by fact and operation;
   * `deprecated` by the JSON of the operation and the deprecated thing it used.
   */
  facts: Map<string, Map<string, number>>;
  /** Documents signed, by id. */
  signed: Set<string>;
  /** The partner's documents; undefined when the source cannot tell. */
  documents: string[] | undefined;
}

/** Operations and statuses, every operation of the API listed. */
function operationCoverage(
  calls: Iterable<{ operationId: string; status: string; n: number }>,
): Record<string, OperationCoverage> {
  const operations: Record<string, OperationCoverage> = {};
  for (const operation of API_OPERATIONS) operations[operation.id] = { calls: 0, statuses: {} };
  for (const { operationId, status, n } of calls) {
    const entry = operations[operationId];
    // An operation a newer API had, counted before: kept, so that nothing counted disappears.
    const coverage = entry ?? { calls: 0, statuses: {} };
    operations[operationId] = coverage;
    coverage.calls += n;
    coverage.statuses[status] = (coverage.statuses[status] ?? 0) + n;
  }
  return operations;
}

/** The evidence in a sandbox partner's counters, its subscriptions and documents. */
export function sandboxEvidence(
  counts: readonly ReadinessCount[],
  subscribed: ReadonlySet<string>,
  documents: string[],
): Evidence {
  const calls: { operationId: string; status: string; n: number }[] = [];
  const topics: Record<string, TopicCoverage> = {};
  const topicOf = (topic: string) => {
    let entry = topics[topic];
    if (entry === undefined) {
      entry = { subscribed: subscribed.has(topic), delivered: 0, acknowledged: 0, failing: 0 };
      topics[topic] = entry;
    }
    return entry;
  };
  for (const topic of WEBHOOK_TOPICS) topicOf(topic);
  for (const topic of subscribed) topicOf(topic);
  const reached = new Map<string, Set<string>>();
  const facts = new Map<string, Map<string, number>>();
  const signed = new Set<string>();
  const faults: FaultCoverage[] = [];
  for (const count of counts) {
    switch (count.kind) {
      case "call":
        calls.push({ operationId: count.name, status: count.detail, n: count.n });
        break;
      case "delivered":
        topicOf(count.name).delivered += count.n;
        break;
      case "acknowledged":
        topicOf(count.name).acknowledged += count.n;
        break;
      case "failing":
        topicOf(count.detail).failing += 1;
        break;
      case "state": {
        const [collection = "", variant] = count.name.split("/");
        const kind = STATE_KINDS[collection as keyof typeof STATE_KINDS];
        if (kind === undefined) break;
        const key = variant === undefined ? kind : `${kind}/${variant}`;
        const states = reached.get(key) ?? new Set<string>();
        reached.set(key, states);
        states.add(count.detail);
        break;
      }
      case "fact":
        if (count.name === "document_signed") {
          signed.add(count.detail);
          break;
        }
        if (!facts.has(count.name)) facts.set(count.name, new Map());
        facts.get(count.name)?.set(count.detail, count.n);
        break;
      case "fault": {
        const fault = faultOf(count);
        if (fault !== undefined) faults.push(fault);
        break;
      }
    }
  }
  const states = Object.fromEntries(
    Object.values(STATE_KINDS).map((kind) => [kind, [...(reached.get(kind) ?? [])].sort()]),
  ) as Record<StateKind, string[]>;
  faults.sort((a, b) => (a.fault_id < b.fault_id ? -1 : a.fault_id > b.fault_id ? 1 : 0));
  return {
    source: "sandbox",
    coverage: { operations: operationCoverage(calls), topics, states, faults },
    reached,
    facts,
    signed,
    documents,
  };
}

/** The evidence of live traffic: operations and statuses, nothing else. */
export function liveEvidence(
  calls: Iterable<{ operationId: string; status: string; n: number }>,
): Evidence {
  const topics: Record<string, TopicCoverage> = {};
  for (const topic of WEBHOOK_TOPICS) {
    topics[topic] = { subscribed: false, delivered: 0, acknowledged: 0, failing: 0 };
  }
  const states = Object.fromEntries(
    Object.values(STATE_KINDS).map((kind) => [kind, [] as string[]]),
  ) as Record<StateKind, string[]>;
  return {
    source: "live",
    coverage: { operations: operationCoverage(calls), topics, states, faults: [] },
    reached: new Map(),
    facts: new Map(),
    signed: new Set(),
    documents: undefined,
  };
}

/** A fault's record, as the request hook stores it (its detail is JSON). */
function faultOf(count: ReadinessCount): FaultCoverage | undefined {
  try {
    const detail = JSON.parse(count.detail) as Partial<FaultCoverage>;
    return {
      fault_id: count.name,
      operation_id: String(detail.operation_id ?? ""),
      kind: (detail.kind ?? "status") as FaultKind,
      status: typeof detail.status === "number" ? detail.status : null,
      recovered: count.n > 1,
    };
  } catch {
    return undefined;
  }
}
