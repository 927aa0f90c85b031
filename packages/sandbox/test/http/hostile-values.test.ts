// Values a client can send that a database may choke on get the API's answers, never a 5xx.

import { MAX_JSON_DEPTH } from "@org/payments-engine";
import {
  API_KEY,
  call,
  createCustomer,
  DEEP_BODIES,
  expectEveryOperationRefuses,
} from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

let sandbox: HttpSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe("hostile values in the sandbox's store", () => {
  it("stores and finds a name with a NUL character", async () => {
    const scope = { "X-SUB-PARTNER-ID": crypto.randomUUID() };
    const created = await createCustomer(sandbox.url, { name: "nul\u0000name" }, scope);
    const listed = await call(sandbox.url, "GET", "/customers", { headers: scope });
    expect(listed.body.items.map((c: { id: string }) => c.id)).toEqual([created.id]);
  });

  it("lists customers in the bytes their creates answered with, escapes and all", async () => {
    const scope = { "X-SUB-PARTNER-ID": crypto.randomUUID() };
    const names = [
      'quote " backslash \\ slash /',
      "line\u2028sep \u00e9 \ud83d\ude00",
      "</script>\u0001",
    ];
    const created = [];
    for (const name of names) {
      const response = await fetch(`${sandbox.url}/customers`, {
        method: "POST",
        headers: {
          "X-API-Key": API_KEY,
          "IDEMPOTENCY-KEY": crypto.randomUUID(),
          "Content-Type": "application/json",
          ...scope,
        },
        body: JSON.stringify({ customer_type: "Person", email: "x@example.com", name }),
      });
      created.push(await response.text());
    }
    // The next page starts at the third, so its id is the cursor.
    const listed = await fetch(`${sandbox.url}/customers?page_size=2`, {
      headers: { "X-API-Key": API_KEY, ...scope },
    });
    const third = JSON.parse(created[2] ?? "{}").id;
    expect(await listed.text()).toBe(
      `{"items":[${created[0]},${created[1]}],"cursor":${JSON.stringify(third)},"prev_cursor":null}`,
    );
  });

  it.each([
    ["a NUL search term", "/customers?search_term=%00"],
    ["GLOB and LIKE wildcards", "/customers?search_term=%25_%2A%3F%5B%5D%5C"],
    ["a one-character term", "/customers?search_term=a"],
  ])("answers %s with a page", async (_, path) => {
    const answer = await call(sandbox.url, "GET", path);
    expect(answer.status).toBe(200);
    expect(Array.isArray(answer.body.items)).toBe(true);
  });

  it("finds nothing for wildcards that a literal match would not find", async () => {
    const answer = await call(sandbox.url, "GET", "/customers?search_term=%25");
    expect(answer.body.items).toEqual([]);
  });

  it("lists fee profiles whatever page_size says, a parameter their list does not declare", async () => {
    const plain = await call(sandbox.url, "GET", "/fee-profiles", {
      headers: { "X-API-Key": API_KEY },
    });
    expect(plain.status).toBe(200);
    for (const size of ["1e999", "-1", "2.5", "1e300", "abc", "9007199254740993"]) {
      const answer = await call(sandbox.url, "GET", `/fee-profiles?page_size=${size}`, {
        headers: { "X-API-Key": API_KEY },
      });
      expect(answer.status, `page_size=${size}: ${JSON.stringify(answer.body)}`).toBe(200);
      expect(answer.body.items, `page_size=${size}`).toEqual(plain.body.items);
    }
  });

  it("answers a NUL in a control route's id with a 404", async () => {
    const answer = await call(sandbox.url, "POST", "/_sandbox/customers/a%00b/status", {
      body: { status: "Active" },
    });
    expect(answer.status).toBe(404);
  });
});

describe("JSON nested past the limit", () => {
  it.each(DEEP_BODIES)(
    "%s gets a 400 naming the limit from every operation with a body, the test mode's too",
    async (_, text) => {
      await expectEveryOperationRefuses(sandbox.url, text, MAX_JSON_DEPTH);
    },
  );
});
