// A store whose transactions of some partners fail: after their work has run, so that the
// rollback has something to undo. And the finished requests the tests hand to FinishedRequests.
import type { SandboxStore } from "../../src/store/store.js";

export interface Failing {
  /** The partners whose transactions fail. */
  partners: Set<string>;
  /** How many of their transactions fail still (Infinity: all). */
  failures: number;
  /** Their transactions begun, failed or not. */
  attempts: number;
  /** Runs in a failing transaction, after its work and before its throw. */
  during: () => void;
  /** While set, their transactions wait for it before they begin (and count as attempts). */
  held: Promise<void> | undefined;
}

/** `store`, with transactions that fail as `failing` says. */
export function failingStore(store: SandboxStore): { flaky: SandboxStore; failing: Failing } {
  const failing: Failing = {
    partners: new Set(),
    failures: 0,
    attempts: 0,
    during: () => {},
    held: undefined,
  };
  const flaky: SandboxStore = {
    ...store,
    transaction: async (partner, work) => {
      if (!failing.partners.has(partner)) return store.transaction(partner, work);
      await failing.held;
      failing.attempts++;
      if (failing.failures === 0) return store.transaction(partner, work);
      failing.failures--;
      return store.transaction(partner, async (tx) => {
        await work(tx);
        failing.during();
        throw new Error("the transaction failed");
      });
    },
  };
  return { flaky, failing };
}

/** The nth request: a POST with key `key-<n>` answered 200, or 503 by a fault when `faulted`. */
export function finishedRequest(n: number, faulted = false, key = `key-${n}`) {
  return {
    at: 1_800_000_000_000 + n * 1000,
    method: "POST",
    path: "/customers",
    operation_id: "createCustomer",
    status: faulted ? 503 : 200,
    duration_ms: 1,
    idempotency_key: key,
    replayed: false,
    fault_id: faulted ? "fault-1" : null,
    fault: faulted ? ("status" as const) : null,
    cursor: false,
    key_reused: false,
    retry_after_s: null,
    request_id: null,
    deprecated: [],
  };
}
