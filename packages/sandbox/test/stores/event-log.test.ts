// The partner's event log on each store: every event a transaction adds gets a cursor as it
// commits, in commit order, also when transactions of the same partner run at once (Postgres); a
// rolled-back transaction leaves nothing; a reset empties the log and its cursors go on; another
// partner's events are never read; and the processes listening are told of each commit (on
// Postgres, every process that shares the database).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { persistentState } from "@org/payments-testing";
import { afterAll, expect, it } from "vitest";
import { dataFromSeed } from "../../src/seed/index.js";
import { openStore } from "../../src/store/open-store.js";
import type { SandboxStore } from "../../src/store/store.js";

const dir = mkdtempSync(join(tmpdir(), "payments-sandbox-event-log-"));
const stores: SandboxStore[] = [];
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function open(state: string | undefined) {
  const store = await openStore(
    state,
    () => dataFromSeed({}),
    () => {},
  );
  stores.push(store);
  return store;
}

const PARTNER = "4c6e8a0b-2d4f-4a6c-8e0b-2d4f6a8c0e1b";
const OTHER = "9e1f3a5b-7c9d-4e1f-8a3b-5c7d9e1f3a5b";

function event(n: number, topic = "CustomerStatus") {
  const id = `event-${n}`;
  return { id, topic, customerId: "c-1", body: JSON.stringify({ id, topic, n }) };
}

/**
 * Resolves once the store's listener hears commits (Postgres's LISTEN connection opens in the
 * background), and forgets what it heard until then.
 */
async function listening(store: SandboxStore, told: Array<string | undefined>) {
  await enter(store, PRIMER);
  for (let n = 1; !told.includes(PRIMER) && n < 400; n++) {
    await store.transaction(PRIMER, async (tx) => tx.appendEvent(event(n)));
    await new Promise((wake) => setTimeout(wake, 25));
  }
  expect(told).toContain(PRIMER);
  told.length = 0;
}

const PRIMER = "1b3d5f7a-9c1e-4b3d-8f5a-7c9e1b3d5f7a";

async function enter(store: SandboxStore, partner: string) {
  await store.transaction(partner, (tx) => tx.enter(Date.now()));
}

it("gives a transaction's events cursors as it commits, in order, readable by topic and partner", async () => {
  const store = await open(await persistentState(dir, "order.db"));
  await enter(store, PARTNER);
  await enter(store, OTHER);
  const told: Array<string | undefined> = [];
  const stop = store.onEventsCommitted((partner) => told.push(partner));
  await listening(store, told);
  await store.transaction(PARTNER, async (tx) => {
    tx.appendEvent(event(1));
    tx.appendEvent(event(2, "TransactionStatus"));
  });
  await store.transaction(OTHER, async (tx) => tx.appendEvent(event(100)));
  await expect(
    store.transaction(PARTNER, async (tx) => {
      tx.appendEvent(event(3));
      throw new Error("rolled back");
    }),
  ).rejects.toThrow("rolled back");
  await store.transaction(PARTNER, async (tx) => tx.appendEvent(event(4)));
  const read = await store.transaction(PARTNER, async (tx) => ({
    all: await tx.eventsAfter(0, [], 100),
    after: await tx.eventsAfter(1, [], 100),
    statuses: await tx.eventsAfter(0, ["TransactionStatus"], 100),
    last: await tx.lastCursor(),
    topic: await tx.topicAt(2, "event-2"),
    elsewhere: await tx.topicAt(1, "event-2"),
    others: await tx.topicAt(1, "event-100"),
  }));
  expect(read.all.map((logged) => [logged.cursor, JSON.parse(logged.body).n])).toEqual([
    [1, 1],
    [2, 2],
    [3, 4],
  ]);
  expect(read.after.map((logged) => logged.cursor)).toEqual([2, 3]);
  expect(read.statuses.map((logged) => logged.topic)).toEqual(["TransactionStatus"]);
  expect(read.last).toBe(3);
  expect(read.topic).toBe("TransactionStatus");
  expect(read.elsewhere).toBeUndefined();
  expect(read.others).toBeUndefined();
  await expect.poll(() => told).toEqual([PARTNER, OTHER, PARTNER]);
  stop();
});

it("empties the log at a reset, and its cursors go on", async () => {
  const store = await open(await persistentState(dir, "reset.db"));
  await enter(store, PARTNER);
  await store.transaction(PARTNER, async (tx) => tx.appendEvent(event(1)));
  await store.transaction(PARTNER, (tx) => tx.replaceAll(dataFromSeed({})));
  await store.transaction(PARTNER, async (tx) => tx.appendEvent(event(2)));
  const all = await store.transaction(PARTNER, (tx) => tx.eventsAfter(0, [], 100));
  expect(all.map((logged) => [logged.cursor, JSON.parse(logged.body).n])).toEqual([[2, 2]]);
});

it("numbers the events of transactions run at once in the order they commit, none skipped", async () => {
  const store = await open(await persistentState(dir, "concurrent.db"));
  await enter(store, PARTNER);
  await Promise.all(
    Array.from({ length: 20 }, (_, n) =>
      store.transaction(PARTNER, async (tx) => {
        tx.appendEvent(event(n * 10 + 1));
        await tx.lastCursor();
        tx.appendEvent(event(n * 10 + 2));
      }),
    ),
  );
  const all = await store.transaction(PARTNER, (tx) => tx.eventsAfter(0, [], 100));
  expect(all.map((logged) => logged.cursor)).toEqual(Array.from({ length: 40 }, (_, n) => n + 1));
  // A transaction's two events are next to each other: none of another came between them.
  for (let index = 0; index < all.length; index += 2) {
    const [first, second] = [all[index], all[index + 1]].map(
      (logged) => JSON.parse(logged?.body ?? "{}").n,
    );
    expect(second).toBe(first + 1);
  }
});
