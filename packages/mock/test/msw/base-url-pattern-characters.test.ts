// sandboxHandlers under a base URL whose path holds characters MSW's path matching reads as its
// own syntax (`:name` a parameter, `*` a wildcard, `(`, `)`, `+`, `{`, `}` and an escaped `?`):
// the handlers answer under that very path, and nothing else. Run with msw 3 and msw 2 (the
// mock-msw2 project), whose matchers read a path differently.
import { specPath } from "@org/payments-spec";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxHandlers } from "../../src/msw/index.js";

/** What answers a request no sandbox handler took. */
const NOT_HANDLED = 599;

describe.for([
  { baseUrl: "https://pattern.payments.test/v1:beta", elsewhere: "/v1xyz/customers" },
  { baseUrl: "https://pattern.payments.test/api*", elsewhere: "/apiary/customers" },
  { baseUrl: "https://pattern.payments.test/(v2)", elsewhere: "/v2/customers" },
  { baseUrl: "https://pattern.payments.test/v2+", elsewhere: "/v22/customers" },
  { baseUrl: "https://pattern.payments.test/{v2}", elsewhere: "/v2/customers" },
  { baseUrl: "https://pattern.payments.test/v2%3Fbeta", elsewhere: "/v2/customers" },
  { baseUrl: "https://pattern.payments.test/a:b/*/(c)+/", elsewhere: "/a/x/c/customers" },
])("a base URL of $baseUrl", ({ baseUrl, elsewhere }) => {
  const handlers = sandboxHandlers({ baseUrl, spec: specPath });
  const server = setupServer(
    ...handlers,
    http.all("*", () => new HttpResponse(null, { status: NOT_HANDLED })),
  );
  beforeAll(() => server.listen());
  afterAll(async () => {
    server.close();
    await handlers.close();
  });

  it("is answered under its very path, API and test mode", async () => {
    const partner = handlers.newPartner();
    const headers = { "x-api-key": partner.apiKey };
    const created = await fetch(`${handlers.baseUrl}/customers`, {
      method: "POST",
      headers: {
        ...headers,
        "content-type": "application/json",
        "idempotency-key": crypto.randomUUID(),
      },
      body: JSON.stringify({ customer_type: "Person", email: "ada@pattern.example" }),
    });
    expect(created.status).toBe(200);
    const listed = await fetch(`${handlers.baseUrl}/customers`, { headers });
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { items: unknown[] }).items).toHaveLength(1);
    // A control goes through the handlers too.
    await partner.advanceClock({ seconds: 60 });
  });

  it("leaves alone a path its characters would match as a pattern", async () => {
    const response = await fetch(new URL(elsewhere, baseUrl), {
      headers: { "x-api-key": handlers.apiKey },
    });
    expect(response.status).toBe(NOT_HANDLED);
  });
});
