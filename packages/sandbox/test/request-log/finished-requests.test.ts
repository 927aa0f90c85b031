// When finished requests are written, on fake timers over a SQLite store in memory: a read a
// moment after the first one waits, or at once at a full batch; a write at once, its commit
// resolving once it is committed, with those that finish while its write waits; again a moment
// after a write failed (the newest MAX_WAITING kept while writes keep failing), and never after
// close.
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { page } from "../../src/json/pages.js";
import { countRequests } from "../../src/readiness/index.js";
import { MAX_WAITING } from "../../src/request-log/finished-requests.js";
import { appendToLog, FinishedRequests } from "../../src/request-log/index.js";
import { dataFromSeed } from "../../src/seed/index.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import type { SandboxStore } from "../../src/store/store.js";
import { failingStore, finishedRequest } from "../support/failing-store.js";

const PARTNER = "7b3d5f7a-9c1e-4a3b-8d5f-7a9c1e3b5d02";

let store: SandboxStore;
beforeEach(async () => {
  store = await openSqliteStore(undefined, () => dataFromSeed({}));
  // Only the timers: the store waits on setImmediate, which stays real.
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(async () => {
  vi.useRealTimers();
  await store.close();
});

it("writes a moment after the first request waits, or at once at a full batch", async () => {
  const { flaky, failing } = failingStore(store);
  failing.partners.add(PARTNER);
  const finished = new FinishedRequests(flaky, [appendToLog, countRequests]);
  finished.add(PARTNER, finishedRequest(1));
  finished.add(PARTNER, finishedRequest(2));
  expect(vi.getTimerCount()).toBe(1);
  await vi.advanceTimersByTimeAsync(99);
  expect(failing.attempts).toBe(0);
  await vi.advanceTimersByTimeAsync(1);
  await expect.poll(() => failing.attempts).toBe(1);

  for (let n = 0; n < 500; n++) finished.add(PARTNER, finishedRequest(n));
  await expect.poll(() => failing.attempts).toBe(2);
  await finished.close();
  expect(vi.getTimerCount()).toBe(0);
});

it("commits a request at once, and resolves it once it is committed", async () => {
  const finished = new FinishedRequests(store, [appendToLog, countRequests]);
  await finished.commit(PARTNER, finishedRequest(1));
  // Committed when commit resolves: no timer waits, and the log and the counts hold it.
  expect(vi.getTimerCount()).toBe(0);
  expect(await loggedKeys()).toEqual(["key-1"]);
  const counted = await store.transaction(PARTNER, (tx) => tx.countsOf("call"));
  expect(counted.map(({ n }) => n)).toEqual([1]);
  await finished.close();
});

it("commits the requests that finish while a write waits in that write, reads waiting with them", async () => {
  const { flaky, failing } = failingStore(store);
  failing.partners.add(PARTNER);
  let release = () => {};
  failing.held = new Promise((resolve) => {
    release = resolve;
  });
  const finished = new FinishedRequests(flaky, [appendToLog, countRequests]);
  let written = 0;
  finished.add(PARTNER, finishedRequest(0));
  const adds = [1, 2, 3].map((n) =>
    finished.commit(PARTNER, finishedRequest(n)).then(() => written++),
  );
  await new Promise((resolve) => setImmediate(resolve));
  expect(written).toBe(0);
  release();
  await Promise.all(adds);
  expect(failing.attempts).toBe(1);
  expect(await loggedKeys()).toEqual(["key-3", "key-2", "key-1", "key-0"]);
  await finished.close();
});

it("answers a request whose write failed, tries it again a moment later, and leaves no timer once closed", async () => {
  const { flaky, failing } = failingStore(store);
  failing.partners.add(PARTNER);
  failing.failures = Number.POSITIVE_INFINITY;
  const finished = new FinishedRequests(flaky, [appendToLog, countRequests]);
  // Resolved, not held while the store fails.
  await finished.commit(PARTNER, finishedRequest(1));
  expect(failing.attempts).toBe(1);
  // Put back, with a timer to try again.
  expect(vi.getTimerCount()).toBe(1);
  await vi.advanceTimersByTimeAsync(100);
  await expect.poll(() => failing.attempts).toBe(2);

  await finished.close();
  expect(failing.attempts).toBe(3);
  expect(vi.getTimerCount()).toBe(0);
  finished.add(PARTNER, finishedRequest(2));
  await vi.advanceTimersByTimeAsync(10_000);
  expect(vi.getTimerCount()).toBe(0);
  expect(failing.attempts).toBe(3);
});

it("flushes a partner's own requests without waiting for another partner's held write", async () => {
  // Key B's writes are held (a lock, a store retrying them); key A's request log, readiness
  // report and reset wait for A's writes only, and learn nothing of what B has waiting.
  const OTHER = "2e4a6c8e-0b1d-4f3a-9c5e-7a9b1d3f5a71";
  const { flaky, failing } = failingStore(store);
  failing.partners.add(OTHER);
  let release = () => {};
  failing.held = new Promise((resolve) => {
    release = resolve;
  });
  const finished = new FinishedRequests(flaky, [appendToLog, countRequests]);
  let otherWritten = false;
  const other = finished.commit(OTHER, finishedRequest(9)).then(() => {
    otherWritten = true;
  });
  finished.add(PARTNER, finishedRequest(1));
  await finished.flush(PARTNER);
  expect(await loggedKeys()).toEqual(["key-1"]);
  expect(otherWritten).toBe(false);
  release();
  await other;
  expect(await loggedKeys(OTHER)).toEqual(["key-9"]);
  await finished.close();
});

/** The keys of the partner's request log, newest first. */
async function loggedKeys(partner = PARTNER): Promise<string[]> {
  const read = await store.transaction(partner, (tx) =>
    page(tx.requestLog({}), { page_size: "100" }),
  );
  if (read.kind !== "page") throw new Error("no page");
  return read.items.map((text) => JSON.parse(text).idempotency_key);
}

it("keeps a partner's newest MAX_WAITING requests while its writes keep failing", async () => {
  // A store that refuses at once (full, say), until it is mended.
  let mended = false;
  const full: SandboxStore = {
    ...store,
    transaction: (partner, work) =>
      mended ? store.transaction(partner, work) : Promise.reject(new Error("the store is full")),
  };
  const finished = new FinishedRequests(full, [appendToLog, countRequests]);
  for (let n = 0; n < MAX_WAITING + 1_000; n++) finished.add(PARTNER, finishedRequest(n));
  await finished.flush();
  mended = true;
  await finished.close();
  // What is written is the newest MAX_WAITING, the last of them last.
  const newest = await store.transaction(PARTNER, (tx) =>
    page(tx.requestLog({}), { page_size: "1" }),
  );
  if (newest.kind !== "page") throw new Error("no page");
  expect(JSON.parse(newest.items[0] as string).idempotency_key).toBe(`key-${MAX_WAITING + 999}`);
  const counted = await store.transaction(PARTNER, (tx) => tx.countsOf("call"));
  expect(counted.reduce((sum, { n }) => sum + n, 0)).toBe(MAX_WAITING);
});
