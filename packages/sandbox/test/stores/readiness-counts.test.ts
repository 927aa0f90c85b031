// A partner's readiness counters on each store: a list naming a counter more than once changes it
// once, as the list says (added: the sum; raised: the largest), in one statement where it can.
import { expect, it } from "vitest";
import { realNow } from "../../src/clock/clock.js";
import { newApiKey } from "../../src/controls.js";
import { partnerIdOf } from "../../src/store/partner.js";
import { openEmptyStore } from "../support/store-projects.js";

it("adds and raises a counter the list names twice, and keeps the others", async () => {
  const store = await openEmptyStore();
  const partner = partnerIdOf(newApiKey());
  const delivered = { kind: "delivered", name: "CustomerCreated", detail: "" } as const;
  const reached = { kind: "state", name: "Customer", detail: "Active" } as const;
  type Transaction = Parameters<Parameters<typeof store.transaction>[1]>[0];
  const inTransaction = <T>(work: (tx: Transaction) => Promise<T>) =>
    store.transaction(partner, async (tx) => {
      await tx.enter(realNow());
      return work(tx);
    });
  const counts = () =>
    inTransaction(async (tx) => (await tx.counts()).sort((a, b) => a.kind.localeCompare(b.kind)));
  await inTransaction((tx) =>
    tx.addCounts([
      { ...delivered, n: 1 },
      { ...reached, n: 1 },
      { ...delivered, n: 2 },
    ]),
  );
  expect(await counts()).toEqual([
    { ...delivered, n: 3 },
    { ...reached, n: 1 },
  ]);
  await inTransaction((tx) =>
    tx.raiseCounts([
      { ...reached, n: 5 },
      { ...reached, n: 4 },
      { ...delivered, n: 2 },
    ]),
  );
  expect(await counts()).toEqual([
    { ...delivered, n: 3 },
    { ...reached, n: 5 },
  ]);
});
