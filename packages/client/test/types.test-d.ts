import type { Customer, CustomerPage, FiatAddress } from "@org/payments-types";
import { describe, expectTypeOf, it } from "vitest";
import { createPaymentsClient, type PaymentsApiError, type PaymentsClient } from "../src/index.js";

declare const client: PaymentsClient;
const person = { customer_type: "Person", email: "a@example.com" } as const;

describe("path-style calls", () => {
  it("narrow data per path and type error as PaymentsApiError", async () => {
    const { data, error } = await client.GET("/customers");
    expectTypeOf(data).toExtend<CustomerPage | undefined>();
    if (data) expectTypeOf(data.items[0]).toEqualTypeOf<Customer | undefined>();
    expectTypeOf(error).toEqualTypeOf<PaymentsApiError | undefined>();
    const address = await client.GET("/addresses/fiat/{customer_id}/{fiat_address_id}", {
      params: { path: { customer_id: "c", fiat_address_id: "f" } },
    });
    if (address.data) expectTypeOf(address.data).toEqualTypeOf<FiatAddress>();
  });

  it("reject a wrong path", () => {
    // @ts-expect-error not a path of the API
    client.GET("/customer");
    // @ts-expect-error /documents has no POST
    client.POST("/documents", {});
  });

  it("reject a wrong or missing param", () => {
    // @ts-expect-error unknown query parameter
    client.GET("/customers", { params: { query: { pageSize: 2 } } });
    // @ts-expect-error page_size is a number
    client.GET("/customers", { params: { query: { page_size: "2" } } });
    // @ts-expect-error the path parameter is missing
    client.GET("/addresses/fiat/{customer_id}", { params: { path: {} } });
    // @ts-expect-error required query parameters are missing
    client.GET("/exchange-rate");
  });

  it("reject a wrong or missing body", () => {
    // @ts-expect-error email is required
    client.POST("/customers", { body: { customer_type: "Person" } });
    // @ts-expect-error customer_type is an enum
    client.POST("/customers", { body: { customer_type: "Robot", email: "a@example.com" } });
    // @ts-expect-error the body is required
    client.POST("/customers");
  });

  it("leave IDEMPOTENCY-KEY and X-SUB-PARTNER-ID optional, yet accept them", () => {
    client.POST("/customers", { body: person });
    client.POST("/customers/{id}/signings", {
      params: { path: { id: "c" } },
      body: { document_id: "d" } as never,
    });
    client.POST("/customers", {
      body: person,
      params: { header: { "IDEMPOTENCY-KEY": "k", "X-SUB-PARTNER-ID": "sp" } },
    });
    client.GET("/customers", { params: { header: { "X-SUB-PARTNER-ID": "sp" } } });
    // @ts-expect-error /documents does not take the sub-partner header
    client.GET("/documents", { params: { header: { "X-SUB-PARTNER-ID": "sp" } } });
  });

  it("take per-call timeoutMs, maxRetries and signal", () => {
    client.GET("/documents", { timeoutMs: 5, maxRetries: 0, signal: AbortSignal.abort() });
  });
});

describe("paginate", () => {
  it("yields the items of the path's pages", async () => {
    for await (const customer of client.paginate("/customers", {
      params: { query: { page_size: 5 } },
    })) {
      expectTypeOf(customer).toEqualTypeOf<Customer>();
    }
    for await (const page of client.paginate("/customers").pages()) {
      expectTypeOf(page).toExtend<CustomerPage>();
      expectTypeOf(page.cursor).toEqualTypeOf<string | undefined>();
    }
  });

  it("accepts only list paths, and backward only where prev_cursor exists", () => {
    // @ts-expect-error /exchange-rate is not a list
    client.paginate("/exchange-rate");
    client.paginate("/autoramp-transactions", { direction: "backward" });
    // @ts-expect-error /customers cannot page backwards
    client.paginate("/customers", { direction: "backward" });
  });
});

describe("facade", () => {
  it("types arguments and data from the spec", async () => {
    expectTypeOf(await client.customers.create(person)).toEqualTypeOf<Customer>();
    expectTypeOf(client.fiatAddresses.get).parameters.toMatchTypeOf<
      [string, string, ...unknown[]]
    >();
    expectTypeOf(await client.fiatAddresses.get("c", "f")).toEqualTypeOf<FiatAddress>();
    client.customers.list();
    client.customers.create(person, { idempotencyKey: "k", subPartnerId: "sp", timeoutMs: 10 });
    // @ts-expect-error wrong body
    client.customers.create({ email: "a@example.com" });
    // @ts-expect-error /documents takes no sub-partner
    client.documents.list({}, { subPartnerId: "sp" });
    // @ts-expect-error GET takes no idempotency key
    client.customers.list({}, { idempotencyKey: "k" });
    // @ts-expect-error the query of getExchangeRate is required
    client.exchangeRates.get();
  });
});

describe("createPaymentsClient", () => {
  it("requires apiKey and baseUrl", () => {
    // @ts-expect-error apiKey is missing
    createPaymentsClient({ baseUrl: "https://x" });
    expectTypeOf(createPaymentsClient).returns.toEqualTypeOf<PaymentsClient>();
  });
});
