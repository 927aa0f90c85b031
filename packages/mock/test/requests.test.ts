// Table-driven: bad requests get a prompt 4xx whose problem body names the problem; valid
// requests (built from the spec's examples) are accepted. It stays on the API's spec: each case is
// one of the API's own rules (its required fields, enums, limits and formats, every operation).

import {
  operations,
  type SpecRequest,
  send,
  validRequest,
  validVariants,
} from "@org/payments-testing";
import { describe, expect, inject, it } from "vitest";
import type { Problem } from "../src/index.js";

const mockUrl = inject("mockUrl");
const UUID_ERROR = "not-a-uuid";
const lines = (count: number) =>
  Array.from({ length: count }, (_, i) => `Line ${i + 1}`).join("\n");

type Body = Record<string, unknown>;
type Case = [
  name: string,
  operationId: string,
  status: number,
  location: string,
  field: string,
  rule: string,
  breakIt: (request: SpecRequest, body: Body) => void,
];

// biome-ignore format: one case per line keeps the table readable
const invalid: Case[] = [
  // Authentication
  ["no X-API-Key", "listCustomers", 401, "security", "X-API-Key", "required", (r) => delete r.headers["X-API-Key"]],
  ["no X-API-Key", "createCustomer", 401, "security", "X-API-Key", "required", (r) => delete r.headers["X-API-Key"]],
  ["no X-API-Key", "getFiatAddress", 401, "security", "X-API-Key", "required", (r) => delete r.headers["X-API-Key"]],
  ["no X-API-Key", "listWebhooks", 401, "security", "X-API-Key", "required", (r) => delete r.headers["X-API-Key"]],
  ["empty X-API-Key", "pingWebhook", 401, "security", "X-API-Key", "required", (r) => { r.headers["X-API-Key"] = ""; }],
  // Idempotency
  ["no IDEMPOTENCY-KEY", "createCustomer", 422, "header", "IDEMPOTENCY-KEY", "required", (r) => delete r.headers["IDEMPOTENCY-KEY"]],
  ["no IDEMPOTENCY-KEY", "createAutoramp", 422, "header", "IDEMPOTENCY-KEY", "required", (r) => delete r.headers["IDEMPOTENCY-KEY"]],
  ["no IDEMPOTENCY-KEY", "createSigning", 422, "header", "IDEMPOTENCY-KEY", "required", (r) => delete r.headers["IDEMPOTENCY-KEY"]],
  ["no IDEMPOTENCY-KEY", "pingWebhook", 422, "header", "IDEMPOTENCY-KEY", "required", (r) => delete r.headers["IDEMPOTENCY-KEY"]],
  ["IDEMPOTENCY-KEY not a uuid", "createDirectIdentification", 422, "header", "IDEMPOTENCY-KEY", "format", (r) => { r.headers["IDEMPOTENCY-KEY"] = "retry-1"; }],
  ["IDEMPOTENCY-KEY not a uuid", "createLinkIdentification", 422, "header", "IDEMPOTENCY-KEY", "format", (r) => { r.headers["IDEMPOTENCY-KEY"] = "12345"; }],
  ["IDEMPOTENCY-KEY not a uuid", "registerSelfHostedCryptoAddress", 422, "header", "IDEMPOTENCY-KEY", "format", (r) => { r.headers["IDEMPOTENCY-KEY"] = UUID_ERROR; }],
  ["X-SUB-PARTNER-ID not a uuid", "listCustomers", 422, "header", "X-SUB-PARTNER-ID", "format", (r) => { r.headers["X-SUB-PARTNER-ID"] = UUID_ERROR; }],
  // Body syntax and media type
  ["malformed JSON", "createCustomer", 400, "body", "", "json", (r) => { r.rawBody = '{"customer_type": "Business",'; }],
  ["malformed JSON", "updateWebhook", 400, "body", "", "json", (r) => { r.rawBody = "{enabled: false}"; }],
  ["malformed JSON", "createAutoramp", 400, "body", "", "json", (r) => { r.rawBody = "not json"; }],
  ["no body", "createSigning", 422, "body", "document_id", "required", (r) => { r.body = undefined; }],
  ["text/plain body", "registerHostedCryptoAddress", 415, "header", "Content-Type", "mediaType", (r) => { r.headers["Content-Type"] = "text/plain"; }],
  // Required fields
  ["missing email", "createCustomer", 422, "body", "email", "required", (_, b) => delete b.email],
  ["missing signed", "createSigning", 422, "body", "signed", "required", (_, b) => delete b.signed],
  ["missing recipient_account", "createAutoramp", 422, "body", "recipient_account", "required", (_, b) => delete b.recipient_account],
  ["missing vasp_did", "registerHostedCryptoAddress", 422, "body", "vasp_did", "required", (_, b) => delete b.vasp_did],
  ["missing customer_id", "pingWebhook", 422, "body", "customer_id", "required", (_, b) => delete b.customer_id],
  ["missing is_third_party", "getAutorampQuote", 422, "query", "is_third_party", "required", (r) => delete r.query.is_third_party],
  ["missing amount", "getExchangeRate", 422, "query", "amount", "required", (r) => delete r.query.amount],
  ["missing ids", "listAutorampTransactionsByIds", 422, "query", "ids", "required", (r) => delete r.query.ids],
  // Types
  ["signed is a string", "createSigning", 422, "body", "signed", "type", (_, b) => { b.signed = "yes"; }],
  ["enabled is a string", "updateWebhook", 422, "body", "enabled", "type", (_, b) => { b.enabled = "no"; }],
  ["email is a number", "createCustomer", 422, "body", "email", "type", (_, b) => { b.email = 42; }],
  ["source_currencies is an object", "createAutoramp", 422, "body", "source_currencies", "type", (_, b) => { b.source_currencies = { code: "EUR" }; }],
  ["body is a bare boolean", "pingWebhook", 422, "body", "", "type", (r) => { r.body = true; }],
  ["expiry_in_hours not an integer", "getAutorampQuote", 422, "query", "expiry_in_hours", "type", (r) => { r.query.expiry_in_hours = "soon"; }],
  ["is_third_party not a boolean", "getAutorampQuote", 422, "query", "is_third_party", "type", (r) => { r.query.is_third_party = "maybe"; }],
  ["amount not a decimal", "getExchangeRate", 422, "query", "amount", "pattern", (r) => { r.query.amount = "1,000.00"; }],
  // Enums
  ["customer_type outside the enum", "createCustomer", 422, "body", "customer_type", "enum", (_, b) => { b.customer_type = "Company"; }],
  ["Direct identification of type Link", "createDirectIdentification", 422, "body", "type", "enum", (_, b) => { b.type = "Link"; }],
  ["Link identification of type Direct", "createLinkIdentification", 422, "body", "type", "enum", (_, b) => { b.type = "Direct"; }],
  ["blockchain outside the enum", "registerHostedCryptoAddress", 422, "body", "blockchain", "enum", (_, b) => { b.blockchain = "Bitcoin"; }],
  ["topic outside the enum", "updateWebhook", 422, "body", "topics.1", "enum", (_, b) => { b.topics = ["Ping", "Refund"]; }],
  ["ramp_type outside the enum", "listAutorampTransactions", 422, "query", "ramp_type", "enum", (r) => { r.query.ramp_type = "onramp"; }],
  ["status outside the enum", "listFiatAddresses", 422, "query", "status", "enum", (r) => { r.query.status = "Pending"; }],
  ["currency type in capitals", "getExchangeRate", 422, "query", "source_currency_type", "enum", (r) => { r.query.source_currency_type = "Crypto"; }],
  ["rate_expiry_policy outside the enum", "getAutorampQuote", 422, "query", "rate_expiry_policy", "enum", (r) => { r.query.rate_expiry_policy = "Refund"; }],
  // page_size
  ["page_size > 100", "listCustomers", 422, "query", "page_size", "maximum", (r) => { r.query.page_size = "101"; }],
  ["page_size negative", "listDocuments", 422, "query", "page_size", "minimum", (r) => { r.query.page_size = "-1"; }],
  ["page_size not an integer", "listWebhooks", 422, "query", "page_size", "type", (r) => { r.query.page_size = "2.5"; }],
  ["page_size a word", "listSignings", 422, "query", "page_size", "type", (r) => { r.query.page_size = "ten"; }],
  ["page_size > 100", "listAutorampTransactions", 422, "query", "page_size", "maximum", (r) => { r.query.page_size = "1000"; }],
  // Limits
  ["search_term of 257 characters", "listCustomers", 422, "query", "search_term", "maxLength", (r) => { r.query.search_term = "s".repeat(257); }],
  ["search_term of 257 characters", "listFiatAddressesByCustomer", 422, "query", "search_term", "maxLength", (r) => { r.query.search_term = "s".repeat(257); }],
  ["source currency code of 33 characters", "getAutorampQuote", 422, "query", "source_currency_code", "maxLength", (r) => { r.query.source_currency_code = "E".repeat(33); }],
  ["destination currency code of 33 characters", "getExchangeRate", 422, "query", "destination_currency_code", "maxLength", (r) => { r.query.destination_currency_code = "U".repeat(33); }],
  ["recipient_account of 257 characters", "getAutorampQuote", 422, "query", "recipient_account", "maxLength", (r) => { r.query.recipient_account = "D".repeat(257); }],
  ["expiry_in_hours of 25", "getAutorampQuote", 422, "query", "expiry_in_hours", "maximum", (r) => { r.query.expiry_in_hours = "25"; }],
  ["wire_message of 5 lines", "createAutoramp", 422, "body", "wire_message", "pattern", (_, b) => { b.wire_message = lines(5); }],
  ["wire_message line of 36 characters", "createAutoramp", 422, "body", "wire_message", "pattern", (_, b) => { b.wire_message = "w".repeat(36); }],
  ["wire_message of 5 lines", "getAutorampQuote", 422, "query", "wire_message", "pattern", (r) => { r.query.wire_message = lines(5); }],
  ["wire_message line of 36 characters", "getAutorampQuote", 422, "query", "wire_message", "pattern", (r) => { r.query.wire_message = `ok\n${"w".repeat(36)}`; }],
  // UUIDs
  ["customer id in the path", "listSignings", 422, "path", "id", "format", (r) => { r.pathParams.id = UUID_ERROR; }],
  ["customer id in the path", "createDirectIdentification", 422, "path", "id", "format", (r) => { r.pathParams.id = "42"; }],
  ["fiat address id in the path", "getFiatAddress", 422, "path", "fiat_address_id", "format", (r) => { r.pathParams.fiat_address_id = UUID_ERROR; }],
  ["webhook id in the path", "updateWebhook", 422, "path", "id", "format", (r) => { r.pathParams.id = "hook-1"; }],
  ["webhook id in the path", "pingWebhook", 422, "path", "id", "format", (r) => { r.pathParams.id = UUID_ERROR; }],
  ["cursor", "listCustomers", 422, "query", "cursor", "format", (r) => { r.query.cursor = "page-2"; }],
  ["autoramp_id", "listAutorampTransactions", 422, "query", "autoramp_id", "format", (r) => { r.query.autoramp_id = UUID_ERROR; }],
  ["a bad first one of repeated ids", "listAutorampTransactionsByIds", 422, "query", "ids.0", "format", (r) => { r.query.ids = [UUID_ERROR, "1a5e9c3d-7f2b-4c6e-8a1d-5b9f3e7c2a64"]; }],
  ["customer_id in the query", "getExchangeRate", 422, "query", "customer_id", "format", (r) => { r.query.customer_id = UUID_ERROR; }],
  ["customer_id in the body", "createAutoramp", 422, "body", "customer_id", "format", (_, b) => { b.customer_id = UUID_ERROR; }],
];

describe("invalid requests are rejected with a problem that names them", () => {
  it("cover at least 40 cases over at least 15 operations", () => {
    expect(invalid.length).toBeGreaterThanOrEqual(40);
    expect(new Set(invalid.map(([, operationId]) => operationId)).size).toBeGreaterThanOrEqual(15);
  });

  it.each(invalid)(
    "%s (%s) → %i",
    async (_, operationId, status, location, field, rule, breakIt) => {
      const request = validRequest(operationId);
      breakIt(request, request.body as Body);
      const response = await send(mockUrl, request);

      expect(response.status).toBe(status);
      expect(response.contentType).toBe("application/json");
      const problem = response.body as Problem;
      expect(problem.status).toBe(status);
      expect(problem.errors).toContainEqual(
        expect.objectContaining({ location, field, rule, message: expect.any(String) }),
      );
      expect(problem.detail).toContain(field);
      expect(JSON.stringify(problem)).not.toContain(request.headers["X-API-Key"] || "\u0000");
    },
  );

  it.each([
    ["an unknown path", "GET", "/refunds", 404],
    ["a method the path lacks", "DELETE", "/customers", 405],
  ])("%s → %i, in the mock's words", async (_, method, path, status) => {
    const response = await send(mockUrl, { ...validRequest("listCustomers"), method, path });
    expect(response.status).toBe(status);
    const problem = response.body as Problem;
    expect(problem.errors[0]?.location).toBe("route");
    expect(problem.detail).toContain(path);
    expect(problem.detail).not.toMatch(/route not resolved|no path matched/i);
  });

  it.each([
    ["GET", "/_sandbox/clock"],
    ["POST", "/_sandbox/clock/advance"],
    ["GET", "/_sandbox/no-such-route"],
  ])("%s %s → 404 that says only the stateful sandbox has test mode", async (method, path) => {
    const response = await send(mockUrl, { ...validRequest("listCustomers"), method, path });
    expect(response.status).toBe(404);
    const [error] = (response.body as Problem).errors;
    expect(error).toMatchObject({ location: "route", rule: "stateful" });
    expect(error?.message).toContain(path);
    expect(error?.message).toContain("--stateful");
    expect(error?.message).toContain("startMock({ stateful: true })");
  });
});

describe("examples and lists", () => {
  it.each([
    ["Person", "ada@example.com"],
    ["Business", "finance@example.com"],
  ])("answers a created %s with the example of that customer type", async (type, email) => {
    const request = validRequest("createCustomer");
    const response = await send(mockUrl, { ...request, body: { customer_type: type, email } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ customer_type: type });
  });

  it("ends a list when a client follows its cursor, so paging terminates", async () => {
    const first = await send(mockUrl, validRequest("listCustomers"));
    const cursor = (first.body as { cursor?: string }).cursor;
    expect(cursor).toEqual(expect.any(String));
    const request = validRequest("listCustomers");
    const next = await send(mockUrl, {
      ...request,
      query: { ...request.query, cursor: String(cursor) },
    });
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ items: expect.any(Array) });
    expect(next.body).not.toHaveProperty("cursor");
  });
});

const valid = operations.flatMap(({ operationId }) =>
  validVariants(operationId).map(([variant, request]) => [operationId, variant, request] as const),
);

describe("valid requests are accepted", () => {
  it("cover at least 40 requests and every operation", () => {
    expect(valid.length).toBeGreaterThanOrEqual(40);
    expect(new Set(valid.map(([operationId]) => operationId))).toEqual(
      new Set(operations.map((entry) => entry.operationId)),
    );
  });

  it.each(valid)("%s with %s → 2xx", async (_, __, request) => {
    const response = await send(mockUrl, request);
    expect(response.status, JSON.stringify(response.body)).toBeGreaterThanOrEqual(200);
    expect(response.status).toBeLessThan(300);
    expect(response.contentType).toMatch(/^application\/json/);
  });
});
