import { describe, expect, it } from "vitest";
import { deref, listOperations, loadSpec } from "../src/index.js";

const doc = loadSpec();
const operations = listOperations(doc);
const byKey = new Map(
  operations.map((entry) => [`${entry.method.toUpperCase()} ${entry.path}`, entry]),
);

function operation(key: string) {
  const entry = byKey.get(key);
  if (!entry) throw new Error(`${key} is not in the spec`);
  return entry;
}

function parameter(key: string, name: string) {
  const found = operation(key).parameters.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`${key} has no parameter ${name}`);
  return { ...found, schema: deref(doc, found.schema) };
}

function schema(name: string) {
  return deref(doc, { $ref: `#/components/schemas/${name}` });
}

function property(schemaName: string, name: string) {
  return deref(doc, schema(schemaName).properties[name]);
}

function requestBodySchema(key: string) {
  const body = deref(doc, operation(key).operation.requestBody);
  return deref(doc, body.content["application/json"].schema);
}

const OPERATIONS = [
  "POST /customers",
  "GET /customers",
  "POST /customers/{id}/identifications",
  "POST /customers/{id}/identifications/v2",
  "POST /customers/{id}/signings",
  "GET /customers/{id}/signings",
  "GET /customers/{id}/unsigned-documents",
  "GET /documents",
  "POST /autoramps",
  "GET /autoramps/quote",
  "GET /autoramps/{external_id}/external",
  "GET /autoramp-transactions",
  "GET /autoramp-transactions/ids",
  "GET /exchange-rate",
  "GET /addresses/fiat/{customer_id}",
  "GET /addresses/fiat",
  "GET /addresses/fiat/{customer_id}/{fiat_address_id}",
  "POST /addresses/crypto/hosted",
  "POST /addresses/crypto/selfhosted",
  "GET /fee-profiles",
  "GET /webhooks",
  "PATCH /webhooks/{id}",
  "POST /webhooks/{id}/ping",
];

const WITHOUT_SUB_PARTNER = [
  "GET /documents",
  "GET /autoramp-transactions/ids",
  "GET /autoramps/{external_id}/external",
  "GET /exchange-rate",
  "GET /webhooks",
];

const LISTS_WITH_CURSOR = [
  "GET /customers",
  "GET /customers/{id}/signings",
  "GET /customers/{id}/unsigned-documents",
  "GET /documents",
  "GET /autoramp-transactions",
  "GET /addresses/fiat/{customer_id}",
  "GET /addresses/fiat",
  "GET /webhooks",
];

describe("operations", () => {
  it("holds exactly the 23 operations of the description", () => {
    expect([...byKey.keys()].sort()).toEqual([...OPERATIONS].sort());
  });

  it("gives each a unique verb+noun operationId, one declared tag, a summary and a 200 and default response", () => {
    const declaredTags = new Set((doc.tags as { name: string }[]).map((tag) => tag.name));
    const ids = operations.map((entry) => entry.operationId);
    expect(new Set(ids).size).toBe(23);
    for (const entry of operations) {
      expect(entry.operationId).toMatch(/^(create|list|get|register|update|ping)[A-Z][A-Za-z]+$/);
      expect(entry.operation.tags).toHaveLength(1);
      expect(declaredTags.has(entry.tag as string)).toBe(true);
      expect(entry.operation.summary).toBeTruthy();
      expect(Object.keys(entry.operation.responses).sort()).toEqual(["200", "default"]);
    }
  });

  it("describes every operation and gives every required parameter an example, as third-party tools expect", () => {
    for (const { operationId, operation, parameters } of operations) {
      expect(operation.description, operationId).toEqual(expect.any(String));
      for (const p of parameters.filter((candidate) => candidate.required)) {
        const example = p.example ?? Object.values(p.examples ?? {})[0];
        expect(example, `${operationId} ${p.in} ${p.name}`).toBeDefined();
      }
    }
  });

  it("returns a PagedList from every list and a bare boolean from ping", () => {
    for (const entry of operations.filter((candidate) =>
      candidate.operationId.startsWith("list"),
    )) {
      const body = entry.operation.responses["200"].content["application/json"].schema;
      const page = deref(doc, body);
      expect(page.allOf[0].$ref, entry.operationId).toBe("#/components/schemas/PagedList");
      // The list's own part types the items, so generated types read `Customer[]`, not `unknown[]`.
      expect(page.allOf[1].required, entry.operationId).toEqual(["items"]);
      expect(page.allOf[1].properties.items.type, entry.operationId).toBe("array");
    }
    const ping = operation("POST /webhooks/{id}/ping").operation.responses["200"];
    expect(ping.content["application/json"].schema).toEqual({ type: "boolean" });
  });

  it("documents errors as a default response whose body is left unspecified", () => {
    for (const entry of operations) {
      expect(entry.operation.responses.default.$ref).toBe("#/components/responses/Error");
    }
    const errorBody = schema("ErrorBody");
    expect(errorBody.type).toBeUndefined();
    expect(errorBody.properties).toBeUndefined();
  });
});

describe("PagedList", () => {
  it("requires items and has a uuid cursor and a nullable uuid prev_cursor", () => {
    const paged = schema("PagedList");
    expect(paged.required).toEqual(["items"]);
    expect(paged.properties.cursor).toMatchObject({ type: "string", format: "uuid" });
    expect(paged.properties.prev_cursor).toMatchObject({
      type: ["string", "null"],
      format: "uuid",
    });
  });
});

describe("headers", () => {
  it("authenticates every operation with an X-API-Key apiKey scheme", () => {
    expect(doc.components.securitySchemes).toEqual({
      ApiKeyAuth: expect.objectContaining({ type: "apiKey", in: "header", name: "X-API-Key" }),
    });
    expect(doc.security).toEqual([{ ApiKeyAuth: [] }]);
    for (const entry of operations) expect(entry.operation.security).toBeUndefined();
  });

  it("takes the optional X-SUB-PARTNER-ID on all but the five excluded operations", () => {
    for (const key of OPERATIONS) {
      const refs = (operation(key).operation.parameters ?? []).map(
        (p: { $ref?: string }) => p.$ref,
      );
      expect(refs.includes("#/components/parameters/SubPartnerId"), key).toBe(
        !WITHOUT_SUB_PARTNER.includes(key),
      );
    }
    const header = deref(doc, { $ref: "#/components/parameters/SubPartnerId" });
    expect(header).toMatchObject({ name: "X-SUB-PARTNER-ID", in: "header", required: false });
    expect(header.schema).toMatchObject({ type: "string", format: "uuid" });
  });

  it("requires a uuid IDEMPOTENCY-KEY on every POST and on nothing else", () => {
    for (const entry of operations) {
      const refs = (entry.operation.parameters ?? []).map((p: { $ref?: string }) => p.$ref);
      expect(refs.includes("#/components/parameters/IdempotencyKey"), entry.operationId).toBe(
        entry.method === "post",
      );
    }
    const header = deref(doc, { $ref: "#/components/parameters/IdempotencyKey" });
    expect(header).toMatchObject({ name: "IDEMPOTENCY-KEY", in: "header", required: true });
    expect(header.schema).toMatchObject({ type: "string", format: "uuid" });
  });
});

describe("pagination parameters", () => {
  it("takes a uuid cursor and a uint32 page_size (0..100, default 10) on every paged list", () => {
    for (const key of LISTS_WITH_CURSOR) {
      expect(parameter(key, "cursor").schema).toMatchObject({ type: "string", format: "uuid" });
      expect(parameter(key, "page_size").schema).toEqual({
        type: "integer",
        format: "uint32",
        minimum: 0,
        default: 10,
        maximum: 100,
      });
    }
  });

  it("pages backwards only on the autoramp-transactions list", () => {
    const withPrev = operations.filter((entry) =>
      entry.parameters.some((candidate) => candidate.name === "prev_cursor"),
    );
    expect(withPrev.map((entry) => entry.operationId)).toEqual(["listAutorampTransactions"]);
  });

  it("lists no query parameters on the fee-profile list", () => {
    const query = operation("GET /fee-profiles").parameters.filter((p) => p.in === "query");
    expect(query).toEqual([]);
  });
});

describe("limits", () => {
  it.each(["GET /customers", "GET /autoramp-transactions", "GET /addresses/fiat/{customer_id}"])(
    "caps search_term at 256 on %s",
    (key) => {
      expect(parameter(key, "search_term").schema.maxLength).toBe(256);
    },
  );

  it.each([
    ["GET /autoramps/quote", "source_currency_code"],
    ["GET /autoramps/quote", "destination_currency_code"],
    ["GET /exchange-rate", "source_currency_code"],
    ["GET /exchange-rate", "destination_currency_code"],
  ])("caps %s %s at 32 and requires it", (key, name) => {
    expect(parameter(key, name).required).toBe(true);
    expect(parameter(key, name).schema.maxLength).toBe(32);
  });

  it.each(["recipient_account", "sender_account_number", "sender_mobile_number"])(
    "caps the quote's %s at 256",
    (name) => {
      expect(parameter("GET /autoramps/quote", name).schema.maxLength).toBe(256);
    },
  );

  it("caps expiry_in_hours at 24 and requires it", () => {
    const expiry = parameter("GET /autoramps/quote", "expiry_in_hours");
    expect(expiry.required).toBe(true);
    expect(expiry.schema).toMatchObject({ type: "integer", format: "int64", maximum: 24 });
  });

  it("uses the 4 x 35 wire_message pattern wherever wire_message occurs", () => {
    const wire = { $ref: "#/components/schemas/WireMessage" };
    expect(requestBodySchema("POST /autoramps").properties.wire_message).toEqual(wire);
    expect(
      operation("GET /autoramps/quote").parameters.find((p) => p.name === "wire_message")?.schema,
    ).toEqual(wire);
    expect(schema("Autoramp").properties.wire_message).toEqual(wire);
    expect(schema("SignedAutorampQuote").properties.wire_message).toEqual(wire);
  });
});

describe("value rules", () => {
  const wireMessage = new RegExp(schema("WireMessage").pattern, "u");
  const decimal = new RegExp(schema("Decimal").pattern, "u");
  const line = "x".repeat(35);

  it.each([
    ["one short line", "Invoice 42", true],
    ["four lines of 35", [line, line, line, line].join("\n"), true],
    ["CRLF line breaks", `${line}\r\n${line}`, true],
    ["an empty message", "", true],
    ["a line of 36", "x".repeat(36), false],
    ["five lines", [line, line, line, line, line].join("\n"), false],
    ["a long second line", `ok\n${"x".repeat(36)}`, false],
  ])("wire_message: %s → %s", (_label, value, valid) => {
    expect(wireMessage.test(value as string)).toBe(valid);
  });

  it.each([
    ["1000.00", true],
    ["0", true],
    ["-1.5", true],
    ["1e3", false],
    ["1,000.00", false],
    [".5", false],
    ["12.", false],
    ["", false],
    ["NaN", false],
  ])("decimal %j → %s", (value, valid) => {
    expect(decimal.test(value as string)).toBe(valid);
  });

  it("types amounts, rates and bips as decimal strings", () => {
    const decimalRef = { $ref: "#/components/schemas/Decimal" };
    expect(schema("Amount").properties.amount).toEqual(decimalRef);
    expect(schema("SignedAutorampQuote").properties.rate).toEqual(decimalRef);
    expect(schema("ExchangeRate").properties.effective_rate).toEqual(decimalRef);
    expect(schema("AutorampQuote").properties.slippage_tolerance_in_bips).toEqual(decimalRef);
    expect(property("Autoramp", "additional_partner_fee_in_bips")).toMatchObject({
      type: "string",
    });
  });
});

describe("resource fidelity", () => {
  it.each([
    [
      "Customer",
      [
        "id",
        "created_at",
        "updated_at",
        "customer_type",
        "email",
        "name",
        "partner_id",
        "identification_ids",
        "signing_ids",
        "status",
      ],
    ],
    [
      "Autoramp",
      [
        "id",
        "created_at",
        "deposit_rails",
        "destination_currency",
        "is_third_party",
        "recipient",
        "source",
        "source_currencies",
        "status",
      ],
    ],
    ["Identification", ["id", "customer_id", "created_at", "updated_at", "status"]],
    ["Signing", ["id", "customer_id", "document_id", "created_at", "updated_at"]],
    [
      "Webhook",
      ["id", "partner_id", "created_at", "updated_at", "enabled", "label", "topics", "url"],
    ],
    ["SelfHostedWallet", ["id", "customer_id", "address", "signature", "disabled", "created_at"]],
    ["ExchangeRate", ["effective_rate", "fee", "from", "to", "out_amount"]],
  ])("%s requires exactly the fields the description marks required", (name, required) => {
    expect([...schema(name).required].sort()).toEqual([...required].sort());
  });

  it("marks the deprecated fields deprecated", () => {
    expect(schema("Autoramp").properties.additional_partner_fee_in_bips.deprecated).toBe(true);
    expect(schema("Autoramp").properties.deposit_account.deprecated).toBe(true);
    expect(
      requestBodySchema("POST /autoramps").properties.additional_partner_fee_in_bips.deprecated,
    ).toBe(true);
  });

  it("never forbids additional properties in a schema", () => {
    const text = JSON.stringify(doc.components.schemas);
    expect(text).not.toContain('"additionalProperties":false');
    expect(text).not.toContain('"unevaluatedProperties":false');
  });

  it("says what each rate expiry policy does is not specified, and invents no behaviour for it", () => {
    // The description names the policies and one rule (Return limits expiry_in_hours to the
    // rate lock duration); what Return or Slippage does when the lock runs out is not shown.
    const quote = operation("GET /autoramps/quote");
    const texts = [
      quote.operation.description,
      schema("RateExpiryPolicy").description,
      ...quote.parameters.map((p) => p.description),
    ].join("\n");
    expect(quote.operation.description).toMatch(/what each policy does is not\s+specified/);
    expect(texts).not.toMatch(/returns the funds|at the new rate|for the `Slippage` policy/);
  });

  it("states no status transition or rate quality in the tags, which the description does not show", () => {
    // "Transitions: not shown" for every status; the description calls the rates exchange rates.
    const tags = Object.fromEntries(
      (doc.tags as { name: string; description: string }[]).map((tag) => [
        tag.name,
        tag.description,
      ]),
    );
    expect(tags.Customers).toMatch(/transitions between a customer's statuses are not specified/);
    expect(tags.Customers).not.toMatch(/before it becomes active/);
    expect(tags["Exchange rates"]).not.toMatch(/indicative/i);
  });

  it("ends a Return quote's examples no later than their rate lock", () => {
    // "expiry_in_hours … limited to the rate lock duration when the policy is Return".
    const quotes = Object.entries(doc.components.examples as Record<string, { value: unknown }>)
      .map(([name, example]) => [name, example.value] as const)
      .filter(
        (entry): entry is readonly [string, Record<string, string>] =>
          typeof entry[1] === "object" &&
          entry[1] !== null &&
          (entry[1] as Record<string, unknown>).rate_expiry_policy === "Return",
      );
    expect(quotes.length).toBeGreaterThan(0);
    for (const [name, quote] of quotes) {
      const { valid_until: validUntil, rate_lock_valid_until: lockUntil } = quote;
      if (validUntil === undefined || lockUntil === undefined) continue;
      expect(Date.parse(validUntil), name).toBeLessThanOrEqual(Date.parse(lockUntil));
    }
  });

  it("keeps the self-hosted wallet's ids and the fiat-address list's customer_id plain strings", () => {
    expect(schema("SelfHostedWallet").properties.id).toEqual({ type: "string" });
    expect(schema("SelfHostedWallet").properties.customer_id).toEqual({ type: "string" });
    expect(parameter("GET /addresses/fiat/{customer_id}", "customer_id").schema).toEqual({
      type: "string",
    });
    expect(
      parameter("GET /addresses/fiat/{customer_id}/{fiat_address_id}", "customer_id").schema.format,
    ).toBe("uuid");
  });
});
