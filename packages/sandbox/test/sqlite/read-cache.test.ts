// Reads kept until the data changes, on a SQLite file (the memory store is SQLite too): a kept
// answer is given while nothing is written, and never once a write, a failed transaction or
// another process may have changed the data.

import { describe, expect, it } from "vitest";
import { type Answer, ok } from "../../src/answers/answer.js";
import { type Read, ReadCache } from "../../src/api/read-cache.js";
import { JsonText } from "../../src/json/json-text.js";
import { EXAMPLE_PARTNER_ID } from "../../src/store/partner.js";
import type { SandboxStore } from "../../src/store/store.js";
import { sqliteFiles } from "../support/sqlite-files.js";

const open = sqliteFiles("read-cache");

const listCustomers: Read = {
  partner: EXAMPLE_PARTNER_ID,
  operationId: "listCustomers",
  params: {},
  query: { page_size: "10" },
  scope: undefined,
};

/** A read of the stored customers' count, and how many times it really read. */
function countingRead(store: SandboxStore) {
  const counted = { reads: 0 };
  const work = async (): Promise<Answer> => {
    counted.reads++;
    return store.transaction(EXAMPLE_PARTNER_ID, async (tx) =>
      ok({ customers: (await tx.list("customers")).length }),
    );
  };
  return { counted, work };
}

/** The answer a cache of answers alone keeps (the sandbox's keeps a read's verdict beside it). */
async function keptAnswer(
  cache: ReadCache<{ answer: Answer }>,
  read: Read,
  work: () => Promise<Answer>,
): Promise<Answer> {
  return (await cache.answer(read, async () => ({ answer: await work() }))).answer;
}

const addCustomer = (store: SandboxStore) =>
  store.transaction(EXAMPLE_PARTNER_ID, (tx) =>
    tx.insert("customers", { id: crypto.randomUUID(), name: "Kept" }, undefined),
  );

describe("ReadCache", () => {
  it("gives the kept answer while nothing is written, and reads again after a write", async () => {
    const store = await open("writes.db");
    const cache = new ReadCache(store);
    const { counted, work } = countingRead(store);
    const version = store.version(EXAMPLE_PARTNER_ID);
    expect(await keptAnswer(cache, listCustomers, work)).toEqual(ok({ customers: 0 }));
    expect(await keptAnswer(cache, listCustomers, work)).toEqual(ok({ customers: 0 }));
    expect(counted.reads).toBe(1);
    await addCustomer(store);
    expect(store.version(EXAMPLE_PARTNER_ID)).not.toBe(version);
    expect(await keptAnswer(cache, listCustomers, work)).toEqual(ok({ customers: 1 }));
    expect(counted.reads).toBe(2);
  });

  it("keeps a partner's answer while another partner writes, so that its reads' time tells nothing of them", async () => {
    const store = await open("partners.db");
    const cache = new ReadCache(store);
    const { counted, work } = countingRead(store);
    const other = "9d3c1f6e-2b4a-5c8d-9e1f-0a2b3c4d5e6f";
    await keptAnswer(cache, listCustomers, work);
    await store.transaction(other, (tx) =>
      tx.insert("customers", { id: crypto.randomUUID(), name: "Of another key" }, undefined),
    );
    await expect(
      store.transaction(other, async () => {
        throw new Error("another key's request failed");
      }),
    ).rejects.toThrow();
    expect(await keptAnswer(cache, listCustomers, work)).toEqual(ok({ customers: 0 }));
    expect(counted.reads).toBe(1);
    // Its own write still moves it.
    await addCustomer(store);
    expect(await keptAnswer(cache, listCustomers, work)).toEqual(ok({ customers: 1 }));
    expect(counted.reads).toBe(2);
  });

  it("keeps answers apart by parameters, query and scope", async () => {
    const store = await open("keys.db");
    const cache = new ReadCache(store);
    const { counted, work } = countingRead(store);
    await keptAnswer(cache, listCustomers, work);
    await keptAnswer(cache, { ...listCustomers, query: { page_size: "11" } }, work);
    await keptAnswer(cache, { ...listCustomers, scope: crypto.randomUUID() }, work);
    await keptAnswer(cache, { ...listCustomers, params: { id: "a" } }, work);
    expect(counted.reads).toBe(4);
  });

  it("does not keep an answer read while a write went on", async () => {
    const store = await open("overlap.db");
    const cache = new ReadCache(store);
    let reads = 0;
    const overlapped = async () => {
      reads++;
      await addCustomer(store);
      return ok({ read: reads });
    };
    await keptAnswer(cache, listCustomers, overlapped);
    expect(await keptAnswer(cache, listCustomers, overlapped)).toEqual(ok({ read: 2 }));
  });

  it("reads again after a transaction failed", async () => {
    const store = await open("failed.db");
    const cache = new ReadCache(store);
    const { counted, work } = countingRead(store);
    await keptAnswer(cache, listCustomers, work);
    await expect(
      store.transaction(EXAMPLE_PARTNER_ID, async () => {
        throw new Error("the request failed");
      }),
    ).rejects.toThrow("the request failed");
    await keptAnswer(cache, listCustomers, work);
    expect(counted.reads).toBe(2);
  });

  it("keeps nothing for an operation that reads the clock or writes", async () => {
    const store = await open("clock.db");
    const cache = new ReadCache(store);
    const { counted, work } = countingRead(store);
    for (const operationId of ["getAutorampQuote", "getExchangeRate", "createCustomer"]) {
      await keptAnswer(cache, { ...listCustomers, operationId }, work);
      await keptAnswer(cache, { ...listCustomers, operationId }, work);
    }
    expect(counted.reads).toBe(6);
  });

  it("keeps a partner's answers however many distinct reads another partner makes", async () => {
    const store = await open("crowd.db");
    const cache = new ReadCache(store);
    const { counted, work } = countingRead(store);
    await keptAnswer(cache, listCustomers, work);
    const other = "9d3c1f6e-2b4a-5c8d-9e1f-0a2b3c4d5e6f";
    const small = async () => ok({ customers: [] });
    const large = async () => ok(new JsonText(JSON.stringify("x".repeat(500 * 1024))));
    // More answers than the whole cache once kept, then more characters than it once kept.
    for (let page = 0; page < 1_200; page++) {
      await keptAnswer(
        cache,
        { ...listCustomers, partner: other, query: { cursor: `${page}` } },
        small,
      );
    }
    for (let page = 0; page < 40; page++) {
      await keptAnswer(
        cache,
        { ...listCustomers, partner: other, query: { size: `${page}` } },
        large,
      );
    }
    await keptAnswer(cache, listCustomers, work);
    expect(counted.reads).toBe(1);
  });

  it("makes room with the partner's own oldest answers, past 100 answers or 512 Ki characters", async () => {
    const store = await open("size.db");
    const cache = new ReadCache(store);
    let reads = 0;
    const small = async () => {
      reads++;
      return ok({ customers: [] });
    };
    const page = (index: number) => ({ ...listCustomers, query: { cursor: `${index}` } });
    for (let index = 0; index <= 100; index++) await keptAnswer(cache, page(index), small);
    await keptAnswer(cache, page(100), small);
    await keptAnswer(cache, page(1), small);
    expect(reads).toBe(101);
    await keptAnswer(cache, page(0), small);
    expect(reads).toBe(102);

    let largeReads = 0;
    const large = async () => {
      largeReads++;
      return ok(new JsonText(JSON.stringify("x".repeat(300 * 1024))));
    };
    const first = { ...listCustomers, query: { page_size: "1" } };
    const second = { ...listCustomers, query: { page_size: "2" } };
    await keptAnswer(cache, first, large);
    await keptAnswer(cache, first, large);
    expect(largeReads).toBe(1);
    await keptAnswer(cache, second, large);
    await keptAnswer(cache, second, large);
    await keptAnswer(cache, first, large);
    expect(largeReads).toBe(3);
    // One answer past the limit alone is never kept.
    const huge = async () => {
      largeReads++;
      return ok(new JsonText(JSON.stringify("x".repeat(600 * 1024))));
    };
    const third = { ...listCustomers, query: { page_size: "3" } };
    await keptAnswer(cache, third, huge);
    await keptAnswer(cache, third, huge);
    expect(largeReads).toBe(5);
  });

  it("past its total, drops the answers of the partner holding the most, not a small one's", async () => {
    const store = await open("total.db");
    // Room for three answers of 300 Ki characters, whichever partners they are of.
    const cache = new ReadCache<{ answer: Answer }>(store, 1_000_000);
    let reads = 0;
    const read = (partner: string, size: number) =>
      keptAnswer(cache, { ...listCustomers, partner }, async () => {
        reads++;
        return ok(new JsonText(JSON.stringify("x".repeat(size))));
      });
    await read("b", 100);
    for (const partner of ["a1", "a2", "a3", "a4"]) await read(partner, 300 * 1024);
    reads = 0;
    // B's small answer is still kept; the first large one made room for the last.
    await read("b", 100);
    await read("a4", 300 * 1024);
    expect(reads).toBe(0);
    await read("a1", 300 * 1024);
    expect(reads).toBe(1);
  });

  it("drops what it keeps of a partner gone from the process", async () => {
    const store = await open("forget.db");
    const cache = new ReadCache(store);
    const { counted, work } = countingRead(store);
    await keptAnswer(cache, listCustomers, work);
    cache.forget([EXAMPLE_PARTNER_ID]);
    await keptAnswer(cache, listCustomers, work);
    expect(counted.reads).toBe(2);
  });

  it("keeps nothing where other processes change the data unseen", async () => {
    const store = await open("shared.db");
    const shared: SandboxStore = { ...store, version: () => undefined };
    const cache = new ReadCache(shared);
    const { counted, work } = countingRead(store);
    await keptAnswer(cache, listCustomers, work);
    await keptAnswer(cache, listCustomers, work);
    expect(counted.reads).toBe(2);
  });
});
