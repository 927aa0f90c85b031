// Every operation, called through the typed client against the mock; every response must match
// the spec's response schema.

import { API_KEY, operations, responseProblems } from "@org/payments-testing";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createContractClient } from "./support/contract-client.js";

const client = createContractClient(inject("mockUrl"), API_KEY);

const customerId = "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f";
const webhookId = "f3a7c1e5-9b4d-4f2a-8c6e-1a3b5d7f9e02";
const subPartner = { "X-SUB-PARTNER-ID": "5a9d2e71-3c4b-4f6a-8d1e-2b7c9f0a3e58" };
const idempotency = () => ({ "IDEMPOTENCY-KEY": crypto.randomUUID(), ...subPartner });

type Call = () => Promise<{ data?: unknown; error?: unknown; response: Response }>;

const calls: Record<string, Call> = {
  listCustomers: () =>
    client.GET("/customers", {
      params: { header: subPartner, query: { page_size: 10, search_term: "Lumen" } },
    }),
  createCustomer: () =>
    client.POST("/customers", {
      params: { header: idempotency() },
      body: { customer_type: "Business", email: "finance@example.com", name: "Lumen Harbor" },
    }),
  createDirectIdentification: () =>
    client.POST("/customers/{id}/identifications", {
      params: { path: { id: customerId }, header: idempotency() },
      body: { type: "Direct" },
    }),
  createLinkIdentification: () =>
    client.POST("/customers/{id}/identifications/v2", {
      params: { path: { id: customerId }, header: idempotency() },
      body: { type: "Link" },
    }),
  listSignings: () =>
    client.GET("/customers/{id}/signings", { params: { path: { id: customerId } } }),
  createSigning: () =>
    client.POST("/customers/{id}/signings", {
      params: { path: { id: customerId }, header: idempotency() },
      body: { document_id: "b4f7c2a9-1e6d-4a3b-8c5f-7d2e9a0b6c13", signed: true },
    }),
  listUnsignedDocuments: () =>
    client.GET("/customers/{id}/unsigned-documents", {
      params: { path: { id: customerId }, query: { page_size: 100 } },
    }),
  listDocuments: () => client.GET("/documents", { params: { query: { page_size: 0 } } }),
  createAutoramp: () =>
    client.POST("/autoramps", {
      params: { header: idempotency() },
      body: {
        customer_id: customerId,
        destination_currency: { blockchain: "Polygon", token: "USDC" },
        recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
        source_currencies: [{ code: "EUR", type: "Fiat" }],
        wire_message: "Lumen Harbor treasury\nInvoice 2026-118",
      },
    }),
  getAutorampQuote: () =>
    client.GET("/autoramps/quote", {
      params: {
        query: {
          customer_id: customerId,
          source_currency_code: "EUR",
          destination_currency_code: "USDC",
          destination_currency_chain: "Polygon",
          recipient_account: "DE89370400440532013000",
          amount_in: "1000.00",
          rate_expiry_policy: "Return",
          expiry_in_hours: 24,
          is_third_party: false,
          wire_message: "Invoice 2026-118",
        },
      },
    }),
  getAutorampByExternalId: () =>
    client.GET("/autoramps/{external_id}/external", {
      params: { path: { external_id: "ramp-eur-usdc-0001" } },
    }),
  listAutorampTransactions: () =>
    client.GET("/autoramp-transactions", {
      params: { query: { customer_id: customerId, ramp_type: "Onramp" } },
    }),
  listAutorampTransactionsByIds: () =>
    client.GET("/autoramp-transactions/ids", {
      params: {
        query: {
          ids: ["1a5e9c3d-7f2b-4c6e-8a1d-5b9f3e7c2a64", "2b6f0d4e-8a3c-4d7f-9b2e-6c0a4f8d3b75"],
        },
      },
    }),
  getExchangeRate: () =>
    client.GET("/exchange-rate", {
      params: {
        query: {
          customer_id: customerId,
          source_currency_code: "USDT",
          source_currency_type: "crypto",
          source_currency_chain: "Ethereum",
          destination_currency_code: "USDC",
          destination_currency_type: "crypto",
          destination_currency_chain: "Polygon",
          amount: "500.00",
        },
      },
    }),
  listFiatAddresses: () =>
    client.GET("/addresses/fiat", { params: { query: { status: "RegistrationPending" } } }),
  listFiatAddressesByCustomer: () =>
    client.GET("/addresses/fiat/{customer_id}", { params: { path: { customer_id: customerId } } }),
  getFiatAddress: () =>
    client.GET("/addresses/fiat/{customer_id}/{fiat_address_id}", {
      params: {
        path: { customer_id: customerId, fiat_address_id: "7a3c5e9b-1d4f-4a6c-8e2b-4d6f8a0c2e53" },
      },
    }),
  registerHostedCryptoAddress: () =>
    client.POST("/addresses/crypto/hosted", {
      params: { header: idempotency() },
      body: {
        blockchain: "Polygon",
        customer_id: customerId,
        vasp_did: "did:web:vasp.example.com",
        wallet_address: "0x4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c",
      },
    }),
  registerSelfHostedCryptoAddress: () =>
    client.POST("/addresses/crypto/selfhosted", {
      params: { header: idempotency() },
      body: {
        address: "0x9a8b7c6d5e4f30211203f4e5d6c7b8a9f0e1d2c3",
        blockchain: "Ethereum",
        customer_id: customerId,
        message: "I own this wallet",
        signature: "0x3c1d",
      },
    }),
  listFeeProfiles: () => client.GET("/fee-profiles", { params: { header: subPartner } }),
  listWebhooks: () => client.GET("/webhooks", { params: { query: { page_size: 5 } } }),
  updateWebhook: () =>
    client.PATCH("/webhooks/{id}", {
      params: { path: { id: webhookId } },
      body: { enabled: false, topics: ["Ping", "TransactionStatus"] },
    }),
  pingWebhook: () =>
    client.POST("/webhooks/{id}/ping", {
      params: { path: { id: webhookId }, header: idempotency() },
      body: { customer_id: customerId },
    }),
};

const exercised = new Set<string>();

describe("every operation through the client matches the spec", () => {
  it.each(Object.keys(calls))("%s", async (operationId) => {
    const { data, error, response } = await (calls[operationId] as Call)();
    exercised.add(operationId);

    expect(error, JSON.stringify(error)).toBeUndefined();
    expect(response.status).toBeGreaterThanOrEqual(200);
    expect(response.status).toBeLessThan(300);
    expect(responseProblems(operationId, data)).toEqual([]);
  });

  afterAll(() => {
    // Derived from the spec, so a new operation without a contract test fails here.
    expect([...exercised].sort()).toEqual(operations.map((entry) => entry.operationId).sort());
  });
});

describe("the response validator", () => {
  it("rejects a response that breaks the schema", () => {
    expect(responseProblems("listCustomers", { items: [{ id: "not-a-uuid" }] })).not.toEqual([]);
    expect(responseProblems("pingWebhook", "true")).not.toEqual([]);
  });
});
