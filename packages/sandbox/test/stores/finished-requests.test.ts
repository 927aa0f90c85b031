// Finished requests on each store: a partner's batch is logged and counted in one transaction; one
// that fails (rolled back after its work ran) is put back and tried again, so that each request
// ends logged once and counted once; another partner's batch is written on its own; after close
// nothing is written.
import { describe, expect, it } from "vitest";
import { page } from "../../src/json/pages.js";
import { countRequests } from "../../src/readiness/index.js";
import { appendToLog, FinishedRequests } from "../../src/request-log/index.js";
import type { SandboxStore } from "../../src/store/store.js";
import { failingStore, finishedRequest as request } from "../support/failing-store.js";
import { openEmptyStore } from "../support/store-projects.js";

const PARTNER = "5c2e8a1f-3b7d-4e9a-8c1b-2d4f6a8c0e13";
const OTHER = "9e4a2c6b-1d3f-4b5a-9c7e-8f0a2b4c6d81";

/** The project's store, and the same with transactions that fail as `failing` says. */
async function open() {
  const store = await openEmptyStore();
  return { store, ...failingStore(store) };
}

/** The keys of the partner's request log, newest first. */
async function logged(store: SandboxStore, partner: string): Promise<string[]> {
  const read = await store.transaction(partner, (tx) =>
    page(tx.requestLog({}), { page_size: "100" }),
  );
  if (read.kind !== "page") throw new Error("no page");
  return read.items.map((text) => JSON.parse(text).idempotency_key);
}

/** The partner's call counters, as [operation, status, n]. */
async function calls(store: SandboxStore, partner: string) {
  const counts = await store.transaction(partner, (tx) => tx.countsOf("call"));
  return counts.map(({ name, detail, n }) => [name, detail, n]).sort();
}

async function faults(store: SandboxStore, partner: string) {
  const counts = await store.transaction(partner, (tx) => tx.countsOf("fault"));
  return counts.map(({ name, n }) => [name, n]);
}

describe("finished requests", () => {
  it("tries a batch whose transaction failed again: each request logged once and counted once", async () => {
    const { store, flaky, failing } = await open();
    failing.partners.add(PARTNER);
    failing.failures = 1;
    const finished = new FinishedRequests(flaky, [appendToLog, countRequests]);
    try {
      finished.add(PARTNER, request(1, true));
      finished.add(OTHER, request(1));
      finished.add(PARTNER, request(2));
      // The partner's transaction fails and is undone; the other partner's is written. A retry
      // of the 503's key comes meanwhile: it recovers the fault only if it is counted after it.
      // The try after it waits until the test has looked, however slow the store.
      let release = () => {};
      failing.during = () => {
        finished.add(PARTNER, request(3, false, "key-1"));
        failing.held = new Promise((resolve) => {
          release = resolve;
        });
      };
      await finished.flush();
      expect(failing.attempts).toBe(1);
      expect(await logged(store, PARTNER)).toEqual([]);
      expect(await calls(store, PARTNER)).toEqual([]);
      expect(await logged(store, OTHER)).toEqual(["key-1"]);
      expect(await calls(store, OTHER)).toEqual([["createCustomer", "200", 1]]);

      // Put back, before what came since, and tried again a moment later.
      release();
      await expect.poll(() => logged(store, PARTNER)).toHaveLength(3);
      finished.add(PARTNER, request(4));
      await finished.flush();
      expect(failing.attempts).toBe(3);
      expect(await logged(store, PARTNER)).toEqual(["key-4", "key-1", "key-2", "key-1"]);
      expect(await calls(store, PARTNER)).toEqual([
        ["createCustomer", "200", 3],
        ["createCustomer", "503", 1],
      ]);
      // Recovered (2): the retry with the 503's key was counted after the 503.
      expect(await faults(store, PARTNER)).toEqual([["fault-1", 2]]);
      expect(await logged(store, OTHER)).toEqual(["key-1"]);
      expect(await calls(store, OTHER)).toEqual([["createCustomer", "200", 1]]);
    } finally {
      await finished.close();
    }
  });

  it("writes only the log, or only the counts, when only that is on", async () => {
    const { store } = await open();
    const logOnly = new FinishedRequests(store, [appendToLog]);
    const countsOnly = new FinishedRequests(store, [countRequests]);
    logOnly.add(PARTNER, request(1));
    countsOnly.add(OTHER, request(2));
    await Promise.all([logOnly.close(), countsOnly.close()]);
    expect(await logged(store, PARTNER)).toEqual(["key-1"]);
    expect(await calls(store, PARTNER)).toEqual([]);
    expect(await logged(store, OTHER)).toEqual([]);
    expect(await calls(store, OTHER)).toEqual([["createCustomer", "200", 1]]);
  });

  it("writes what waits at close, once, and nothing after", async () => {
    const { store, flaky, failing } = await open();
    failing.partners.add(PARTNER);
    failing.failures = Number.POSITIVE_INFINITY;
    const finished = new FinishedRequests(flaky, [appendToLog, countRequests]);
    finished.add(PARTNER, request(1));
    finished.add(OTHER, request(1));
    await finished.close();
    expect(failing.attempts).toBe(1);
    expect(await logged(store, OTHER)).toEqual(["key-1"]);

    failing.failures = 0;
    finished.add(PARTNER, request(2));
    finished.add(OTHER, request(2));
    await finished.flush();
    await finished.close();
    expect(failing.attempts).toBe(1);
    expect(await logged(store, PARTNER)).toEqual([]);
    expect(await calls(store, PARTNER)).toEqual([]);
    expect(await logged(store, OTHER)).toEqual(["key-1"]);
  });
});
