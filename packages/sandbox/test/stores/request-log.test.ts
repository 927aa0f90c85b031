// The request log on each store: batches of entries written as rows, read back newest first, a
// page at a time and filtered, across batches; each partner's newest REQUESTS_KEPT kept (trimmed
// once per TRIM_AFTER entries of small batches), another partner's never seen.
import { describe, expect, it } from "vitest";
import { type Page, page } from "../../src/json/pages.js";
import type { KeptRequest, RequestLogFilter } from "../../src/request-log/index.js";
import { dataFromSeed } from "../../src/seed/index.js";
import { TRIM_AFTER } from "../../src/store/request-log-rows.js";
import { REQUESTS_KEPT, type SandboxStore } from "../../src/store/store.js";
import { openEmptyStore } from "../support/store-projects.js";

const PARTNER = "2d7f1c3e-5a9b-4c8d-9e1f-3a5b7c9d1e2f";
const OTHER = "8a1b3c5d-7e9f-4a2b-8c4d-6e8f0a2b4c6d";
const ALONE = "5c3e1a7b-9d2f-4e6a-8b0c-2d4f6a8c0e1b";

/** The nth request: every third a 503 of a fault, the rest 200s, each with its own key. */
function entry(n: number): KeptRequest {
  const failed = n % 3 === 0;
  return {
    at: 1_800_000_000_000 + n,
    method: "POST",
    path: "/customers",
    operation_id: "createCustomer",
    status: failed ? 503 : 200,
    duration_ms: 1,
    idempotency_key: `key-${n}`,
    replayed: false,
    fault_id: failed ? "fault-1" : null,
    fault: failed ? "status" : null,
    request_id: `request-${n}`,
  };
}

async function append(store: SandboxStore, partner: string, from: number, count: number) {
  const entries = Array.from({ length: count }, (_, index) => entry(from + index));
  await store.transaction(partner, (tx) => tx.appendRequests(entries));
}

/** The ids of the partner's whole log, newest first. */
async function idsOf(store: SandboxStore, partner: string): Promise<string[]> {
  const read: Page = await store.transaction(partner, (tx) =>
    page(tx.requestLog({}), { page_size: "100" }),
  );
  if (read.kind !== "page") throw new Error(`unknown cursor ${read.value}`);
  return read.items.map((text) => JSON.parse(text).id);
}

/** Every page of the log the filter keeps, as the keys of its entries, following the cursors. */
async function allPages(store: SandboxStore, filter: RequestLogFilter, size = 7) {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const read: Page = await store.transaction(PARTNER, (tx) =>
      page(tx.requestLog(filter), { cursor, page_size: String(size) }),
    );
    if (read.kind !== "page") throw new Error(`unknown cursor ${read.value}`);
    pages.push(read.items.map((text) => JSON.parse(text).idempotency_key));
    cursor = read.cursor;
  } while (cursor !== undefined);
  return pages;
}

describe("the request log", () => {
  it("pages newest first across batches, filtered, and goes back with prev_cursor", async () => {
    const store = await openEmptyStore();
    await append(store, PARTNER, 1, 5);
    await append(store, OTHER, 1, 5);
    await append(store, PARTNER, 6, 10);
    const keys = (await allPages(store, {})).flat();
    expect(keys).toEqual(Array.from({ length: 15 }, (_, index) => `key-${15 - index}`));
    const failed = (await allPages(store, { status: 503 }, 2)).flat();
    expect(failed).toEqual(["key-15", "key-12", "key-9", "key-6", "key-3"]);
    expect(
      (await allPages(store, { fault_id: "fault-1", idempotency_key: "key-9" })).flat(),
    ).toEqual(["key-9"]);
    expect((await allPages(store, { request_id: "request-7" })).flat()).toEqual(["key-7"]);
    const first = await store.transaction(PARTNER, (tx) =>
      page(tx.requestLog({}), { page_size: "4" }),
    );
    if (first.kind !== "page" || first.cursor === undefined) throw new Error("no first page");
    const second = await store.transaction(PARTNER, (tx) =>
      page(tx.requestLog({}), { cursor: first.cursor, page_size: "4" }),
    );
    if (second.kind !== "page" || second.prevCursor === null) throw new Error("no second page");
    const back = await store.transaction(PARTNER, (tx) =>
      page(tx.requestLog({}), { prev_cursor: second.prevCursor ?? "", page_size: "4" }),
    );
    expect(
      back.kind === "page" && back.items.map((text) => JSON.parse(text).idempotency_key),
    ).toEqual(["key-15", "key-14", "key-13", "key-12"]);
    const otherKeys = await store.transaction(OTHER, (tx) =>
      page(tx.requestLog({}), { page_size: "100" }),
    );
    expect(otherKeys.kind === "page" && otherKeys.items).toHaveLength(5);
    const unknown = await store.transaction(OTHER, (tx) =>
      page(tx.requestLog({}), { cursor: first.cursor, page_size: "1" }),
    );
    expect(unknown.kind).toBe("unknown-cursor");
  });

  it("numbers each partner's log on its own, and goes on from its numbers after a reset", async () => {
    const store = await openEmptyStore();
    // OTHER's batches between PARTNER's would move a store-wide number: ALONE's, made alone,
    // read the same as PARTNER's.
    for (const partner of [PARTNER, ALONE]) await append(store, partner, 1, 2);
    for (const from of [1, 3, 5]) await append(store, OTHER, from, 2);
    for (const partner of [PARTNER, ALONE]) await append(store, partner, 3, 2);
    const before = await idsOf(store, PARTNER);
    expect(before).toHaveLength(4);
    expect(before).toEqual(await idsOf(store, ALONE));
    await store.transaction(PARTNER, (tx) => tx.replaceAll(dataFromSeed({})));
    expect(await idsOf(store, PARTNER)).toEqual([]);
    await append(store, PARTNER, 5, 1);
    const [after] = await idsOf(store, PARTNER);
    // A cursor taken before the reset reads on to the entries after it.
    expect(BigInt(after as string)).toBeGreaterThan(BigInt(before[0] as string));
  });

  it(`keeps a partner's newest ${REQUESTS_KEPT.toLocaleString("en-US")} requests, at most a batch more`, async () => {
    const store = await openEmptyStore();
    const batch = 2_000;
    const total = REQUESTS_KEPT + 3 * batch;
    for (let from = 1; from <= total; from += batch) await append(store, PARTNER, from, batch);
    const kept = (await allPages(store, {}, 1_000)).flat();
    expect(kept.length).toBeGreaterThanOrEqual(REQUESTS_KEPT);
    expect(kept.length).toBeLessThan(REQUESTS_KEPT + batch);
    expect(kept[0]).toBe(`key-${total}`);
  });

  it(`trims a log written in small batches once per ${TRIM_AFTER} entries, keeping its newest ${REQUESTS_KEPT.toLocaleString("en-US")}`, async () => {
    const store = await openEmptyStore();
    const batch = 20;
    // Its first append trims; each next trim after TRIM_AFTER entries more.
    const total = REQUESTS_KEPT + 4 * TRIM_AFTER;
    for (let from = 1; from <= total; from += batch) await append(store, PARTNER, from, batch);
    const kept = (await allPages(store, {}, 1_000)).flat();
    expect(kept.length).toBeGreaterThanOrEqual(REQUESTS_KEPT);
    expect(kept.length).toBeLessThan(REQUESTS_KEPT + TRIM_AFTER + batch);
    expect(kept[0]).toBe(`key-${total}`);
  });
});
