import { describe, expect, it } from "vitest";
import { PaymentsApiError, PaymentsError } from "../src/index.js";
import { json, startUpstream, testClient } from "./upstream.js";

/** Serves `pages` keyed by the cursor they are fetched with ("" for the first page). */
function pagedUpstream(
  pages: Record<string, { items: unknown[]; cursor?: string | null; prev_cursor?: string | null }>,
) {
  return startUpstream((arrival, res) => {
    const query = new URL(arrival.url, "http://x").searchParams;
    const page = pages[query.get("cursor") ?? query.get("prev_cursor") ?? ""];
    if (page) json(res, 200, page);
    else json(res, 404, { message: "no such cursor" });
  });
}

describe("paginate", () => {
  it("iterates every item of every page, passing page_size and filters on every page", async () => {
    const upstream = await pagedUpstream({
      "": { items: [{ id: "1" }, { id: "2" }], cursor: "c2" },
      c2: { items: [{ id: "3" }, { id: "4" }], cursor: "c3" },
      c3: { items: [{ id: "5" }], cursor: null },
    });
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const ids: string[] = [];
    for await (const customer of client.paginate("/customers", {
      params: { query: { page_size: 2, search_term: "acme" } },
    })) {
      ids.push(customer.id);
    }
    expect(ids).toEqual(["1", "2", "3", "4", "5"]);
    expect(upstream.arrivals).toHaveLength(3);
    for (const n of [0, 1, 2]) {
      expect(upstream.query(n).get("page_size")).toBe("2");
      expect(upstream.query(n).get("search_term")).toBe("acme");
    }
    expect([0, 1, 2].map((n) => upstream.query(n).get("cursor"))).toEqual([null, "c2", "c3"]);
  });

  it("stops when the cursor is absent", async () => {
    const upstream = await pagedUpstream({ "": { items: [{ id: "1" }] } });
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const pages = [];
    for await (const page of client.paginate("/documents").pages()) pages.push(page);
    expect(pages).toEqual([{ items: [{ id: "1" }] }]);
  });

  it("walks pages backwards with prev_cursor on /autoramp-transactions", async () => {
    const upstream = await pagedUpstream({
      p3: { items: [{ id: "5" }], prev_cursor: "p2", cursor: null },
      p2: { items: [{ id: "3" }, { id: "4" }], prev_cursor: "p1", cursor: "p3" },
      p1: { items: [{ id: "1" }, { id: "2" }], prev_cursor: null, cursor: "p2" },
    });
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const ids: (string | undefined)[] = [];
    for await (const tx of client.paginate("/autoramp-transactions", {
      params: { query: { prev_cursor: "p3", page_size: 2 } },
      direction: "backward",
    })) {
      ids.push(tx.id);
    }
    expect(ids).toEqual(["5", "3", "4", "1", "2"]);
    expect([0, 1, 2].map((n) => upstream.query(n).get("prev_cursor"))).toEqual(["p3", "p2", "p1"]);
    expect([0, 1, 2].map((n) => upstream.query(n).get("cursor"))).toEqual([null, null, null]);
    expect([0, 1, 2].map((n) => upstream.query(n).get("page_size"))).toEqual(["2", "2", "2"]);
  });

  it("throws instead of looping when the API repeats a cursor", async () => {
    const upstream = await pagedUpstream({
      "": { items: [1], cursor: "a" },
      a: { items: [2], cursor: "b" },
      b: { items: [3], cursor: "a" },
    });
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const items: unknown[] = [];
    const iterate = async () => {
      for await (const item of client.paginate("/webhooks")) items.push(item);
    };
    const failure = await iterate().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsError);
    expect(failure).toMatchObject({
      operation: "listWebhooks",
      message: "GET /webhooks returned cursor a twice: pagination stopped to avoid a loop",
    });
    expect(items).toEqual([1, 2, 3]);
  });

  it("throws the PaymentsApiError of a failed page", async () => {
    const upstream = await pagedUpstream({ "": { items: [1], cursor: "gone" } });
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const iterate = async () => {
      for await (const _ of client.paginate("/documents"));
    };
    await expect(iterate()).rejects.toBeInstanceOf(PaymentsApiError);
    await expect(iterate()).rejects.toMatchObject({ status: 404, operation: "listDocuments" });
  });

  it("starts over on each iteration", async () => {
    const upstream = await pagedUpstream({ "": { items: [1], cursor: "x" }, x: { items: [2] } });
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const paginator = client.paginate("/documents");
    const runs: unknown[][] = [];
    for (let i = 0; i < 2; i++) {
      const items: unknown[] = [];
      for await (const item of paginator) items.push(item);
      runs.push(items);
    }
    expect(runs).toEqual([
      [1, 2],
      [1, 2],
    ]);
  });
});
