import { describe, expect, it } from "vitest";
import { json, startUpstream, testClient } from "./upstream.js";

async function setUp(subPartnerId?: string) {
  const upstream = await startUpstream((_, res) => json(res, 200, { items: [] }));
  const { client } = testClient({
    baseUrl: upstream.baseUrl,
    ...(subPartnerId && { subPartnerId }),
  });
  const sent = () => upstream.arrivals.map((a) => a.headers["x-sub-partner-id"]);
  return { client, sent };
}

describe("sub-partner scoping", () => {
  it("sends the client's subPartnerId only on operations that take the header", async () => {
    const { client, sent } = await setUp("sp-1");
    await client.GET("/customers");
    await client.GET("/documents");
    await client.GET("/exchange-rate", {
      params: {
        query: {
          customer_id: "c1",
          source_currency_code: "USD",
          source_currency_type: "fiat",
          destination_currency_code: "USDC",
          destination_currency_type: "crypto",
          amount: "10",
        },
      },
    });
    await client.PATCH("/webhooks/{id}", { params: { path: { id: "w1" } }, body: {} });
    expect(sent()).toEqual(["sp-1", undefined, undefined, "sp-1"]);
  });

  it("sends nothing without a sub-partner", async () => {
    const { client, sent } = await setUp();
    await client.GET("/customers");
    expect(sent()).toEqual([undefined]);
  });

  it("forSubPartner scopes a copy of the client and leaves the original alone", async () => {
    const { client, sent } = await setUp("sp-1");
    const scoped = client.forSubPartner("sp-2");
    await scoped.GET("/customers");
    await scoped.customers.list();
    await scoped.GET("/webhooks");
    await client.GET("/customers");
    expect(sent()).toEqual(["sp-2", "sp-2", undefined, "sp-1"]);
    expect(() => client.forSubPartner("")).toThrow("subPartnerId must be a non-empty string");
  });

  it("takes a sub-partner per call, over the client's", async () => {
    const { client, sent } = await setUp("sp-1");
    await client.GET("/customers", { params: { header: { "X-SUB-PARTNER-ID": "sp-3" } } });
    await client.customers.list({ page_size: 5 }, { subPartnerId: "sp-4" });
    expect(sent()).toEqual(["sp-3", "sp-4"]);
  });
});
