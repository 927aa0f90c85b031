import { describe, expect, it } from "vitest";
import {
  listOperations,
  loadSpec,
  type OpenApiDocument,
  parameterExample,
  requestBodyExample,
  sampleValue,
  schemaExample,
} from "../src/index.js";

const doc = loadSpec();
const byId = new Map(listOperations(doc).map((entry) => [entry.operationId, entry]));

describe("example helpers", () => {
  it("reads a parameter's own example before its schema's", () => {
    const quote = byId.get("getAutorampQuote");
    const expiry = quote?.parameters.find((p) => p.name === "expiry_in_hours");
    const policy = quote?.parameters.find((p) => p.name === "rate_expiry_policy");
    expect(parameterExample(doc, expiry as never)).toBe(1);
    expect(parameterExample(doc, policy as never)).toBe("Return");
  });

  it("reads the first named request body example, following its $ref", () => {
    const create = byId.get("createCustomer");
    expect(requestBodyExample(doc, create?.operation ?? {})).toMatchObject({
      customer_type: "Business",
      email: "finance@example.com",
    });
    expect(requestBodyExample(doc, byId.get("listCustomers")?.operation ?? {})).toBeUndefined();
  });

  it("prefers example, then examples, default and the first enum value", () => {
    const tiny = { components: {} } as unknown as OpenApiDocument;
    expect(schemaExample(tiny, { example: "a", examples: ["b"] })).toBe("a");
    expect(schemaExample(tiny, { examples: ["b"], default: "c" })).toBe("b");
    expect(schemaExample(tiny, { default: "c", enum: ["d"] })).toBe("c");
    expect(schemaExample(tiny, { enum: ["d", "e"] })).toBe("d");
    expect(schemaExample(tiny, { type: "string" })).toBeUndefined();
  });

  it("makes a value from the type when a schema has no example", () => {
    const tiny = { components: {} } as unknown as OpenApiDocument;
    expect(sampleValue(tiny, { type: "string", format: "uuid" })).toMatch(/^[0-9a-f-]{36}$/);
    expect(sampleValue(tiny, { type: "integer", minimum: 3 })).toBe(3);
    expect(sampleValue(tiny, { type: "boolean" })).toBe(false);
    expect(sampleValue(tiny, { type: "array", items: { enum: ["x"] } })).toEqual(["x"]);
  });
});
