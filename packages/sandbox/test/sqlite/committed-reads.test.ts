// Reads of what has committed to a SQLite file (an event stream's): they run on a connection of
// their own, so a read made while a long transaction is open (a clock advance's batch) is answered
// before that transaction ends, and sees none of it until it has committed.
import { expect, it } from "vitest";
import type { SandboxStore } from "../../src/store/store.js";
import { sqliteFiles } from "../support/sqlite-files.js";

const open = sqliteFiles("committed-reads");
const PARTNER = "4c6e8a0b-2d4f-4a6c-8e0b-2d4f6a8c0e1b";

function event(n: number) {
  const id = `event-${n}`;
  return { id, topic: "CustomerStatus", customerId: "c-1", body: JSON.stringify({ id, n }) };
}

async function withEvents(store: SandboxStore, ...numbers: number[]) {
  await store.transaction(PARTNER, async (tx) => {
    for (const n of numbers) tx.appendEvent(event(n));
  });
}

it("answers a read while a transaction is open, from what has committed", async () => {
  const store = await open("open-transaction.db");
  await store.transaction(PARTNER, (tx) => tx.enter(Date.now()));
  await withEvents(store, 1, 2);

  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let inside = () => {};
  const entered = new Promise<void>((resolve) => {
    inside = resolve;
  });
  const order: string[] = [];
  const writing = store
    .transaction(PARTNER, async (tx) => {
      tx.appendEvent(event(3));
      inside();
      await held;
    })
    .then(() => order.push("transaction"));
  await entered;
  // If the read waited for the transaction, this unblocks it, and the order says so.
  const unblock = setTimeout(release, 2_000);
  const read = await store.read(PARTNER, async (tx) => ({
    last: await tx.lastCursor(),
    events: await tx.eventsAfter(0, [], 10),
  }));
  order.push("read");
  release();
  clearTimeout(unblock);
  await writing;

  expect(order).toEqual(["read", "transaction"]);
  expect(read.last).toBe(2);
  expect(read.events.map((logged) => logged.cursor)).toEqual([1, 2]);
  // Once committed, the next read has it.
  expect(await store.read(PARTNER, (tx) => tx.lastCursor())).toBe(3);
});

it("refuses a write on the reading connection", async () => {
  const store = await open("read-only.db");
  const NEW_PARTNER = "9e1f3a5b-7c9d-4e1f-8a3b-5c7d9e1f3a5b";
  await expect(store.read(NEW_PARTNER, (tx) => tx.enter(Date.now()))).rejects.toThrow(
    /readonly|read-only|query_only/i,
  );
  // Nothing of it was written: the partner is made by its first transaction.
  const entered = await store.transaction(NEW_PARTNER, (tx) => tx.enter(Date.now()));
  expect(entered.created).toBe(true);
});
