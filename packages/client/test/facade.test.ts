import { describe, expect, it } from "vitest";
import { PaymentsApiError } from "../src/index.js";
import { json, startUpstream, testClient } from "./upstream.js";

/** Echoes what it received, so the test can see how the facade built the request. */
async function echoClient() {
  const upstream = await startUpstream((arrival, res) =>
    arrival.url.startsWith("/fail")
      ? json(res, 400, {})
      : json(res, 200, { method: arrival.method, url: arrival.url, body: arrival.body }),
  );
  return { upstream, ...testClient({ baseUrl: upstream.baseUrl, subPartnerId: "sp-1" }) };
}

describe("resource facade", () => {
  it("create(body) POSTs the body with an idempotency key and returns the data", async () => {
    const { client, upstream } = await echoClient();
    const data = await client.customers.create({ customer_type: "Business", email: "a@b.example" });
    expect(data).toMatchObject({
      method: "POST",
      url: "/customers",
      body: JSON.stringify({ customer_type: "Business", email: "a@b.example" }),
    });
    expect(upstream.arrivals[0]?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(upstream.arrivals[0]?.headers["x-sub-partner-id"]).toBe("sp-1");
  });

  it("list(query) sends the query", async () => {
    const { client } = await echoClient();
    expect(
      await client.autorampTransactions.list({ page_size: 3, ramp_type: "Onramp" }),
    ).toMatchObject({
      url: "/autoramp-transactions?page_size=3&ramp_type=Onramp",
    });
    expect(await client.autorampTransactions.listByIds({ ids: ["a", "b"] })).toMatchObject({
      url: "/autoramp-transactions/ids?ids=a&ids=b",
    });
    expect(await client.documents.list()).toMatchObject({ url: "/documents" });
  });

  it("takes path parameters first, in path order", async () => {
    const { client } = await echoClient();
    expect(await client.fiatAddresses.get("cust 1", "fa-2")).toMatchObject({
      method: "GET",
      url: "/addresses/fiat/cust%201/fa-2",
    });
    expect(await client.feeProfiles.list({ timeoutMs: 1000 })).toMatchObject({
      url: "/fee-profiles",
    });
  });

  it.each(["", ".", ".."])(
    "refuses the path parameter %j, which would reach another operation",
    async (id) => {
      const { client, upstream } = await echoClient();
      await expect(client.webhooks.ping(id, { customer_id: "c-1" })).rejects.toThrow(
        new TypeError('path parameter id must not be empty, "." or ".."'),
      );
      expect(upstream.arrivals).toHaveLength(0);
    },
  );

  it("refuses a lone surrogate in a path or query parameter, naming it, without retrying", async () => {
    const { client, upstream, attempts } = await echoClient();
    await expect(client.signings.list("c-\ud800")).rejects.toThrow(
      new TypeError("path parameter id must be well-formed text (it has a lone UTF-16 surrogate)"),
    );
    await expect(client.customers.list({ search_term: "\udc00" })).rejects.toThrow(
      new TypeError(
        "query parameter search_term must be well-formed text (it has a lone UTF-16 surrogate)",
      ),
    );
    expect(attempts).toHaveLength(0);
    expect(upstream.arrivals).toHaveLength(0);
  });

  it.each([
    ["idempotencyKey", "IDEMPOTENCY-KEY", "key\nwith a line break"],
    ["subPartnerId", "X-SUB-PARTNER-ID", "\u201csp-1\u201d"],
  ])(
    "refuses the option %s when it is no header value, naming the header, without retrying",
    async (option, header, value) => {
      const { client, waits } = await echoClient();
      await expect(
        client.webhooks.ping("w-1", { customer_id: "c-1" }, { [option]: value }),
      ).rejects.toThrow(
        new TypeError(
          `header ${header} must be a valid HTTP header value (Latin-1, no line breaks, controls or outer spaces)`,
        ),
      );
      expect(waits).toEqual([]);
    },
  );

  it("takes the body after path parameters, then options", async () => {
    const { client, upstream } = await echoClient();
    await client.webhooks.ping(
      "w-1",
      { customer_id: "c-1" },
      {
        idempotencyKey: "ping-1",
        subPartnerId: "sp-9",
      },
    );
    await client.webhooks.update("w-1", { url: "https://hooks.example" });
    expect(
      upstream.arrivals.map((a) => [
        a.method,
        a.url,
        a.headers["idempotency-key"],
        a.headers["x-sub-partner-id"],
      ]),
    ).toEqual([
      ["POST", "/webhooks/w-1/ping", "ping-1", "sp-9"],
      ["PATCH", "/webhooks/w-1", undefined, "sp-1"],
    ]);
  });

  it("throws PaymentsApiError on a non-2xx response", async () => {
    const upstream = await startUpstream((_, res) =>
      json(res, 404, { message: "no such customer" }),
    );
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const failure = await client.signings.list("c-404").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsApiError);
    expect(failure).toMatchObject({ status: 404, operation: "listSignings" });
  });

  it("passes the caller's signal", async () => {
    const { client } = await echoClient();
    await expect(
      client.exchangeRates.get(
        {
          customer_id: "c",
          source_currency_code: "USD",
          source_currency_type: "fiat",
          destination_currency_code: "USDC",
          destination_currency_type: "crypto",
          amount: "1",
        },
        { signal: AbortSignal.abort() },
      ),
    ).rejects.toMatchObject({ name: "AbortError" });
  });
});
