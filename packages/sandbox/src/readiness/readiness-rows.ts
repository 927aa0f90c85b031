// What readiness keeps in the store, per partner (the SQL is store/readiness-counts.ts): counters
// of what its integration has done, and what a report reads besides them.

/**
 * What a counter counts:
 * - `call`: requests of operation `name` answered status `detail` ("no answer" for a drop);
 * - `fact`: what a request showed beyond its status (`name` the fact, `detail` its operation);
 * - `state`: resources of kind `name` (or `kind/variant`) that reached state `detail`;
 * - `delivered`, `acknowledged`: delivery attempts of topic `name` sent, and answered 2xx;
 * - `failing`: an event (`name`: webhook and event ids) of topic `detail` whose last attempt failed;
 * - `fault`: a fault `name` that answered a request, `detail` what it was (JSON); n 2 once
 *   recovered from, else 1;
 * - `pending`: a fault not recovered from yet (`name` its key), `detail` what recovers it (JSON).
 */
export type CountKind =
  | "call"
  | "fact"
  | "state"
  | "delivered"
  | "acknowledged"
  | "failing"
  | "fault"
  | "pending";

export interface ReadinessCount {
  kind: CountKind;
  name: string;
  detail: string;
  n: number;
}

/** The counters' operations in a transaction of the partner's. */
export interface CountRows {
  /** Adds each count to its counter (a counter listed twice gets both). */
  addCounts(counts: readonly ReadinessCount[]): Promise<void>;
  /** Raises each counter to at least its count (a record rather than a tally; listed twice, the larger). */
  raiseCounts(counts: readonly ReadinessCount[]): Promise<void>;
  /**
   * Marks each counter as reached (n 1, a fact rather than a tally: a state reached, a document
   * signed); where only this process writes, one it has marked before costs no statement.
   */
  markCounts(counts: readonly ReadinessCount[]): Promise<void>;
  /** Removes the counters of `kind` with these names, whatever their detail. */
  removeCounts(kind: CountKind, names: readonly string[]): Promise<void>;
  /** Every counter of the partner's. */
  counts(): Promise<ReadinessCount[]>;
  /** The partner's counters of one kind. */
  countsOf(kind: CountKind): Promise<ReadinessCount[]>;
}

/** What a report reads: the counters, the partner's webhooks (their topics) and documents. */
export interface ReportRows {
  counts(): Promise<ReadinessCount[]>;
  list(
    collection: "webhooks" | "documents",
  ): Promise<{ resource: { id: string } & Record<string, unknown> }[]>;
}

/** What tells one counter from another: its kind, name and detail. */
export const counterKey = ({
  kind,
  name,
  detail,
}: Pick<ReadinessCount, "kind" | "name" | "detail">) => `${kind}\0${name}\0${detail}`;

/** The counts with one entry per counter, their numbers added (or as `combine` makes one of two). */
export function merged(
  counts: readonly ReadinessCount[],
  combine: (a: number, b: number) => number = (a, b) => a + b,
): ReadinessCount[] {
  const byKey = new Map<string, ReadinessCount>();
  for (const count of counts) {
    const key = counterKey(count);
    const known = byKey.get(key);
    if (known === undefined) byKey.set(key, { ...count });
    else known.n = combine(known.n, count.n);
  }
  return [...byKey.values()];
}
