import { call, createCustomer, newKey } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

let sandbox: HttpSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const ids = (answer: { body: { items: Array<{ id: string }> } }) =>
  answer.body.items.map((item) => item.id);

describe("X-SUB-PARTNER-ID scoping", () => {
  it("lists a customer under its own sub-partner and the partner, not under another", async () => {
    const a = { "X-SUB-PARTNER-ID": crypto.randomUUID() };
    const b = { "X-SUB-PARTNER-ID": crypto.randomUUID() };
    const customer = await createCustomer(sandbox.url, { name: "Scoped" }, a);
    const list = (headers: Record<string, string>) =>
      call(sandbox.url, "GET", "/customers?page_size=100", { headers });
    expect(ids(await list(a))).toEqual([customer.id]);
    expect(ids(await list(b))).toEqual([]);
    expect(ids(await list({}))).toContain(customer.id);
  });

  it("answers 404 for another sub-partner's customer", async () => {
    const a = { "X-SUB-PARTNER-ID": crypto.randomUUID() };
    const b = { "X-SUB-PARTNER-ID": crypto.randomUUID() };
    const customer = await createCustomer(sandbox.url, {}, a);
    const answer = await call(sandbox.url, "POST", `/customers/${customer.id}/identifications`, {
      body: { type: "Direct" },
      headers: { ...b, ...newKey() },
    });
    expect(answer.status).toBe(404);
    const own = await call(sandbox.url, "GET", `/customers/${customer.id}/signings`, {
      headers: a,
    });
    expect(own.status).toBe(200);
  });

  it("prices an exchange rate for any of the partner's customers: the operation takes no X-SUB-PARTNER-ID", async () => {
    const a = { "X-SUB-PARTNER-ID": crypto.randomUUID() };
    const customer = await createCustomer(sandbox.url, {}, a);
    const rate = (headers: Record<string, string>) =>
      call(
        sandbox.url,
        "GET",
        `/exchange-rate?customer_id=${customer.id}&source_currency_code=EUR&source_currency_type=fiat&destination_currency_code=USDC&destination_currency_type=crypto&amount=100`,
        { headers },
      );
    expect((await rate({})).status).toBe(200);
    expect((await rate({ "X-SUB-PARTNER-ID": crypto.randomUUID() })).status).toBe(200);
  });
});
