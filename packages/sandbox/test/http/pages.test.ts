import { call, createCustomer } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

const transaction = (index: number) => ({
  id: crypto.randomUUID(),
  autoramp_id: "d2a6f8c1-4b9e-4d7a-a3c5-8e1f6b2d9c47",
  customer_id: "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
  created_at: "2026-03-06T08:30:00Z",
  source_amount: {
    amount: `${index}.00`,
    currency: { code: "EUR", type: index % 2 ? "Fiat" : "Crypto" },
  },
  destination_amount: { amount: "1.00", currency: { code: "USDC", type: "Crypto" } },
  state: "Pending",
  status: "FundsReviewInProgress",
});
const transactions = Array.from({ length: 23 }, (_, index) => transaction(index));

let sandbox: HttpSandbox;
const subPartner = { "X-SUB-PARTNER-ID": crypto.randomUUID() };
let created: string[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ seed: { autoramp_transactions: transactions } });
  created = [];
  for (let index = 0; index < 25; index++) {
    const customer = await createCustomer(sandbox.url, { name: `Page ${index}` }, subPartner);
    created.push(customer.id);
  }
});
afterAll(() => sandbox.stop());

async function walk(path: string, headers: Record<string, string> = {}) {
  const pages: Array<{
    items: Array<{ id: string }>;
    cursor?: string;
    prev_cursor: string | null;
  }> = [];
  let cursor: string | undefined;
  do {
    const separator = path.includes("?") ? "&" : "?";
    const url = cursor === undefined ? path : `${path}${separator}cursor=${cursor}`;
    const answer = await call(sandbox.url, "GET", url, { headers });
    expect(answer.status).toBe(200);
    pages.push(answer.body);
    cursor = answer.body.cursor;
  } while (cursor !== undefined && pages.length < 50);
  return pages;
}

describe("sandbox pages", () => {
  it("walks every item exactly once, in creation order, 10 per page by default", async () => {
    const pages = await walk("/customers", subPartner);
    expect(pages.map((page) => page.items.length)).toEqual([10, 10, 5]);
    expect(pages.flatMap((page) => page.items.map((item) => item.id))).toEqual(created);
    expect(pages[0]?.prev_cursor).toBeNull();
    expect(pages[1]?.prev_cursor).toBe(created[10]);
  });

  it("honours page_size up to 100", async () => {
    expect((await walk("/customers?page_size=7", subPartner)).map((p) => p.items.length)).toEqual([
      7, 7, 7, 4,
    ]);
    const [all] = await walk("/customers?page_size=100", subPartner);
    expect(all?.items).toHaveLength(25);
    expect(all?.cursor).toBeUndefined();
  });

  it("filters by search_term (case-insensitive, in name, email, external id or id)", async () => {
    const pages = await walk("/customers?search_term=page%201", subPartner);
    const names = pages.flatMap((page) =>
      page.items.map((item) => (item as never as { name: string }).name),
    );
    expect(names).toEqual(["Page 1", ...Array.from({ length: 10 }, (_, i) => `Page 1${i}`)]);
  });

  it("pages back with prev_cursor on the autoramp-transactions list", async () => {
    const forward = await walk("/autoramp-transactions?page_size=5");
    expect(forward.flatMap((page) => page.items.map((item) => item.id))).toEqual(
      transactions.map((tx) => tx.id),
    );
    const third = forward[2];
    const back = await call(
      sandbox.url,
      "GET",
      `/autoramp-transactions?page_size=5&prev_cursor=${third?.prev_cursor}`,
    );
    expect(back.body.items).toEqual(forward[1]?.items);
    expect(back.body.cursor).toBe(third?.prev_cursor);
  });

  it("takes no prev_cursor on the lists the description gives none: it answers the first page", async () => {
    const first = await call(sandbox.url, "GET", "/customers?page_size=5", { headers: subPartner });
    // Taken, it would answer the page before the list's first item: none.
    const back = await call(
      sandbox.url,
      "GET",
      `/customers?page_size=5&prev_cursor=${first.body.items[0].id}`,
      { headers: subPartner },
    );
    expect(back.status).toBe(200);
    expect(back.body).toEqual(first.body);
  });

  it("filters transactions by ramp_type", async () => {
    const answer = await call(
      sandbox.url,
      "GET",
      "/autoramp-transactions?ramp_type=Swap&page_size=100",
    );
    expect(answer.body.items.map((tx: { id: string }) => tx.id)).toEqual(
      transactions.filter((_, index) => index % 2 === 0).map((tx) => tx.id),
    );
  });

  it("refuses a cursor that is not one of the list's with a 400 problem", async () => {
    const answer = await call(sandbox.url, "GET", `/customers?cursor=${crypto.randomUUID()}`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ location: "query", field: "cursor" });
  });
});
