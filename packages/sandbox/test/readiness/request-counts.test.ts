// The counts of finished requests, in a SQLite store in memory: calls by status, the facts beyond
// the status, and faults followed until a later request recovers them, across batches.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { countRequests, sandboxEvidence } from "../../src/readiness/index.js";
import type { FinishedRequest } from "../../src/request-log/index.js";
import { COLLECTIONS, type SandboxData } from "../../src/store/sandbox-data.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import type { SandboxStore } from "../../src/store/store.js";

const nothing = (): SandboxData => ({
  collections: Object.fromEntries(
    COLLECTIONS.map((name) => [name, []]),
  ) as unknown as SandboxData["collections"],
  idempotency: {},
  events: [],
});

let store: SandboxStore;
beforeEach(async () => {
  store = await openSqliteStore(undefined, nothing);
});
afterEach(() => store.close());

const T0 = Date.parse("2026-11-27T10:00:00Z");

/** A request `seconds` after T0: a keyed POST of createCustomer answered 200 unless told. */
function request(seconds: number, fields: Partial<FinishedRequest> = {}): FinishedRequest {
  return {
    at: T0 + seconds * 1000,
    method: "POST",
    path: "/customers",
    operation_id: "createCustomer",
    status: 200,
    duration_ms: 1,
    idempotency_key: "k1",
    replayed: false,
    fault_id: null,
    fault: null,
    cursor: false,
    key_reused: false,
    retry_after_s: null,
    request_id: null,
    deprecated: [],
    ...fields,
  };
}

const count = (partner: string, requests: FinishedRequest[]) =>
  store.transaction(partner, (tx) => countRequests(tx, requests));

const coverage = async (partner: string) =>
  sandboxEvidence(await store.transaction(partner, (tx) => tx.counts()), new Set(), []).coverage;

describe("request counts", () => {
  it("counts calls by status, and POSTs without a key, reused keys and later pages", async () => {
    await count("p", [
      request(0),
      request(1, { idempotency_key: null, status: 422 }),
      request(2, { status: 422, key_reused: true }),
      request(3, {
        method: "GET",
        operation_id: "listCustomers",
        cursor: true,
        idempotency_key: null,
      }),
      request(4, { status: null, fault: "drop_before_commit", fault_id: "f" }),
    ]);
    const { operations } = await coverage("p");
    expect(operations.createCustomer).toEqual({
      calls: 4,
      statuses: { "200": 1, "422": 2, "no answer": 1 },
    });
    expect(operations.listCustomers).toEqual({ calls: 1, statuses: { "200": 1 } });
    const facts = await store.transaction("p", (tx) => tx.countsOf("fact"));
    expect(facts.map(({ name, detail, n }) => [name, detail, n]).sort()).toEqual([
      ["key_reused", "createCustomer", 1],
      ["next_page", "listCustomers", 1],
      ["post_without_key", "createCustomer", 1],
    ]);
    // Nothing of p's is another partner's.
    expect(await store.transaction("q", (tx) => tx.counts())).toEqual([]);
  });

  it("marks a 503 on a POST recovered once the same key answers 2xx, in a later batch", async () => {
    await count("p", [request(0, { status: 503, fault: "status", fault_id: "f503" })]);
    expect((await coverage("p")).faults).toEqual([
      {
        fault_id: "f503",
        operation_id: "createCustomer",
        kind: "status",
        status: 503,
        recovered: false,
      },
    ]);
    // Another key's success, and another operation with the same key, recover nothing.
    await count("p", [
      request(1, { idempotency_key: "k2" }),
      request(2, { operation_id: "createAutoramp", path: "/autoramps" }),
    ]);
    expect((await coverage("p")).faults[0]?.recovered).toBe(false);
    await count("p", [request(3)]);
    expect((await coverage("p")).faults[0]?.recovered).toBe(true);
    // Recovered stays recovered, and nothing is left pending.
    await count("p", [request(4, { status: 503, idempotency_key: "k9" })]);
    expect((await coverage("p")).faults[0]?.recovered).toBe(true);
    expect(await store.transaction("p", (tx) => tx.countsOf("pending"))).toEqual([]);
  });

  it("marks a lost answer recovered by its replay, and a GET fault by the same GET answered 2xx", async () => {
    await count("p", [
      request(0, { status: null, fault: "drop_after_commit", fault_id: "lost" }),
      request(1, {
        method: "GET",
        operation_id: "listCustomers",
        path: "/customers",
        idempotency_key: null,
        status: 500,
        fault: "status",
        fault_id: "g",
      }),
      request(2, {
        method: "GET",
        operation_id: "listCustomers",
        path: "/customers/x/signings",
        idempotency_key: null,
      }),
    ]);
    let faults = (await coverage("p")).faults;
    expect(faults.map((fault) => [fault.fault_id, fault.recovered])).toEqual([
      ["g", false],
      ["lost", false],
    ]);
    await count("p", [
      request(3),
      request(4, {
        method: "GET",
        operation_id: "listCustomers",
        path: "/customers",
        idempotency_key: null,
      }),
    ]);
    faults = (await coverage("p")).faults;
    expect(faults.map((fault) => [fault.fault_id, fault.recovered])).toEqual([
      ["g", true],
      ["lost", true],
    ]);
  });

  it("judges a 429 by its next request: recovered only when it came after Retry-After", async () => {
    await count("p", [
      request(0, { status: 429, fault: "rate_limit", retry_after_s: 2 }),
      request(1),
    ]);
    expect((await coverage("p")).faults).toEqual([
      {
        fault_id: "rate_limit",
        operation_id: "createCustomer",
        kind: "rate_limit",
        status: 429,
        recovered: false,
      },
    ]);
    await count("p", [request(10, { status: 429, fault: "rate_limit", retry_after_s: 2 })]);
    await count("p", [request(12.5)]);
    expect((await coverage("p")).faults[0]?.recovered).toBe(true);
  });
});
