// The wire guard on the real spec: shared schemas and parameters are reported at every operation
// that uses them, and recursion ends. Its command, `npm run spec:diff`, is tested in
// @org/payments-surface-guard, beside the package guard it also runs.
import { describe, expect, it } from "vitest";
import { diffSpecs } from "../src/diff.ts";
import { listOperations, loadSpec, type OpenApiDocument } from "../src/index.js";

// biome-ignore lint/suspicious/noExplicitAny: the tests edit the parsed spec as loose JSON
type Json = Record<string, any>;

const real = loadSpec();
const changed = (edit: (spec: Json) => void) => {
  const head = structuredClone(real) as Json;
  edit(head);
  return head as OpenApiDocument;
};
const summary = (report: ReturnType<typeof diffSpecs>) => ({
  breaking: report.breaking.map((c) => `${c.rule} @ ${c.where}`),
  additions: report.additions.map((c) => `${c.rule} @ ${c.where}`),
});

describe("diffSpecs on the real spec", () => {
  it("finds nothing between the spec and itself", () => {
    expect(diffSpecs(real, loadSpec())).toEqual({ breaking: [], additions: [] });
  });

  it("follows $refs into a shared enum: narrowed, it breaks the request and not the responses", () => {
    const head = changed((spec) => {
      const topics = spec.components.schemas.WebhookTopic;
      topics.enum = topics.enum.filter((topic: string) => topic !== "Ping");
    });
    const { breaking, additions } = summary(diffSpecs(real, head));
    expect(breaking).toEqual([
      "request-enum-narrowed @ updateWebhook (PATCH /webhooks/{id}) request application/json body.topics[]",
    ]);
    expect(additions).toContain(
      "response-enum-narrowed @ listWebhooks (GET /webhooks) response 200 application/json body.items[].topics[]",
    );
  });

  it("a new value of a response enum breaks every operation that returns it", () => {
    const head = changed((spec) => spec.components.schemas.CustomerStatus.enum.push("Frozen"));
    expect(summary(diffSpecs(real, head)).breaking).toEqual([
      "response-enum-widened @ listCustomers (GET /customers) response 200 application/json body.items[].status",
      "response-enum-widened @ createCustomer (POST /customers) response 200 application/json body.status",
    ]);
  });

  it("a shared parameter tightened is reported at each operation that takes it", () => {
    const head = changed((spec) => {
      spec.components.parameters.SearchTerm.schema.maxLength = 100;
    });
    expect(summary(diffSpecs(real, head)).breaking).toEqual([
      "request-limit-narrowed @ listCustomers (GET /customers) query parameter search_term",
      "request-limit-narrowed @ listAutorampTransactions (GET /autoramp-transactions) query parameter search_term",
      "request-limit-narrowed @ listFiatAddressesByCustomer (GET /addresses/fiat/{customer_id}) query parameter search_term",
    ]);
  });

  it("the API key moved from a header to the query breaks every operation", () => {
    const head = changed((spec) => {
      spec.components.securitySchemes.ApiKeyAuth = { type: "apiKey", in: "query", name: "key" };
    });
    const { breaking } = diffSpecs(real, head);
    expect(breaking.map((change) => change.rule)).toEqual(
      listOperations(real).map(() => "security-narrowed"),
    );
    expect(breaking[0]?.message).toContain(
      "API key in header x-api-key no longer suffices: it now takes API key in query key",
    );
  });

  it("ends on recursive schemas and still sees a change deep inside them", () => {
    const tree = (leaf: Json) => ({
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        "/tree": {
          get: {
            operationId: "getTree",
            responses: {
              "200": {
                description: "ok",
                content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Node: {
            type: "object",
            properties: {
              leaf: leaf,
              children: { type: "array", items: { $ref: "#/components/schemas/Node" } },
            },
          },
        },
      },
    });
    const report = diffSpecs(
      tree({ type: "string" }) as OpenApiDocument,
      tree({ type: ["string", "null"] }) as OpenApiDocument,
    );
    expect(summary(report).breaking).toEqual([
      "response-type-widened @ getTree (GET /tree) response 200 application/json body.leaf",
    ]);
  });
});
