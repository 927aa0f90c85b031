// Every rule of the breaking-change guard, each with a tiny before/after pair: the change alone, in a
// one-operation spec, must be classified by exactly the expected rules (no more, no fewer).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { diffSpecs, RULES } from "../src/diff.ts";
import type { OpenApiDocument } from "../src/index.js";

type Json = Record<string, unknown>;

function document(paths: Json, extra: Json = {}): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths,
    components: { securitySchemes: { key: { type: "apiKey", in: "header", name: "X-API-Key" } } },
    security: [{ key: [] }],
    ...extra,
  } as OpenApiDocument;
}

const ok = (schema: Json = {}) => ({
  "200": { description: "ok", content: { "application/json": { schema } } },
  default: { description: "error" },
});

/** GET /things whose 200 body has `schema`. */
const responding = (schema: Json) =>
  document({ "/things": { get: { operationId: "listThings", responses: ok(schema) } } });

/** POST /things whose required JSON body has `schema`. */
const accepting = (schema: Json) =>
  document({
    "/things": {
      post: {
        operationId: "createThing",
        requestBody: { required: true, content: { "application/json": { schema } } },
        responses: ok(),
      },
    },
  });

/** GET /things/{id} with `parameters`, and `operation` spread over it. */
const operation = (parameters: Json[] = [], more: Json = {}, path = "/things/{id}") =>
  document({
    [path]: {
      get: {
        operationId: "getThing",
        parameters: [
          { name: path.match(/\{(\w+)\}/)?.[1], in: "path", required: true, schema: {} },
          ...parameters,
        ],
        responses: ok(),
        ...more,
      },
    },
  });

const rulesOf = (before: OpenApiDocument, after: OpenApiDocument) => {
  const { breaking, additions } = diffSpecs(before, after);
  return [...breaking, ...additions].map((change) => change.rule).sort();
};

const seen = new Set<string>();
/**
 * Expects the change from `before` to `after` to raise exactly `rules`, and to be breaking exactly
 * through the rules marked `!`: the label is the test's own, not read from RULES.
 */
const expectRules = (before: OpenApiDocument, after: OpenApiDocument, labelled: string[]) => {
  const rules = labelled.map((rule) => rule.replace(/^!/, ""));
  for (const rule of rules) seen.add(rule);
  expect(rulesOf(before, after)).toEqual([...rules].sort());
  const breaking = labelled.filter((rule) => rule.startsWith("!")).map((rule) => rule.slice(1));
  expect(
    diffSpecs(before, after)
      .breaking.map((change) => change.rule)
      .sort(),
  ).toEqual(breaking.sort());
};

const object = (properties: Json, required: string[] = [], more: Json = {}) => ({
  type: "object",
  properties,
  required,
  ...more,
});
const str = { type: "string" };

/**
 * Schema changes, each tried in a request body and in a response body. What narrows a request or
 * widens a response breaks; the reverse is safe.
 */
const schemaCases: Array<{
  change: string;
  before: Json;
  after: Json;
  request: string[];
  response: string[];
}> = [
  {
    change: "type gains null",
    before: str,
    after: { type: ["string", "null"] },
    request: ["request-type-widened"],
    response: ["!response-type-widened"],
  },
  {
    change: "type loses null",
    before: { type: ["string", "null"] },
    after: str,
    request: ["!request-type-narrowed"],
    response: ["response-type-narrowed"],
  },
  {
    change: "integer becomes number",
    before: { type: "integer" },
    after: { type: "number" },
    request: ["request-type-widened"],
    response: ["!response-type-widened"],
  },
  {
    change: "type added",
    before: {},
    after: str,
    request: ["!request-type-narrowed"],
    response: ["response-type-narrowed"],
  },
  {
    change: "string becomes integer",
    before: str,
    after: { type: "integer" },
    request: ["!type-changed"],
    response: ["!type-changed"],
  },
  {
    change: "enum value added",
    before: { type: "string", enum: ["A"] },
    after: { type: "string", enum: ["A", "B"] },
    request: ["request-enum-widened"],
    response: ["!response-enum-widened"],
  },
  {
    change: "enum value removed",
    before: { type: "string", enum: ["A", "B"] },
    after: { type: "string", enum: ["A"] },
    request: ["!request-enum-narrowed"],
    response: ["response-enum-narrowed"],
  },
  {
    change: "enum dropped",
    before: { type: "string", enum: ["A"] },
    after: str,
    request: ["request-enum-widened"],
    response: ["!response-enum-widened"],
  },
  {
    change: "const added",
    before: str,
    after: { type: "string", const: "A" },
    request: ["!request-enum-narrowed"],
    response: ["response-enum-narrowed"],
  },
  {
    change: "format added",
    before: str,
    after: { type: "string", format: "uuid" },
    request: ["!request-format-narrowed"],
    response: ["response-format-narrowed"],
  },
  {
    change: "format removed",
    before: { type: "string", format: "date-time" },
    after: str,
    request: ["request-format-widened"],
    response: ["!response-format-widened"],
  },
  {
    change: "uint32 becomes uint64",
    before: { type: "integer", format: "uint32" },
    after: { type: "integer", format: "uint64" },
    request: ["request-format-widened"],
    response: ["!response-format-widened"],
  },
  {
    change: "int64 becomes int32",
    before: { type: "integer", format: "int64" },
    after: { type: "integer", format: "int32" },
    request: ["!request-format-narrowed"],
    response: ["response-format-narrowed"],
  },
  {
    change: "email becomes uri",
    before: { type: "string", format: "email" },
    after: { type: "string", format: "uri" },
    request: ["!format-changed"],
    response: ["!format-changed"],
  },
  {
    change: "maxLength lowered",
    before: { type: "string", maxLength: 256 },
    after: { type: "string", maxLength: 128 },
    request: ["!request-limit-narrowed"],
    response: ["response-limit-narrowed"],
  },
  {
    change: "maximum raised",
    before: { type: "integer", maximum: 24 },
    after: { type: "integer", maximum: 48 },
    request: ["request-limit-widened"],
    response: ["!response-limit-widened"],
  },
  {
    change: "minimum added",
    before: { type: "integer" },
    after: { type: "integer", minimum: 1 },
    request: ["!request-limit-narrowed"],
    response: ["response-limit-narrowed"],
  },
  {
    change: "minItems removed",
    before: { type: "array", minItems: 1 },
    after: { type: "array" },
    request: ["request-limit-widened"],
    response: ["!response-limit-widened"],
  },
  {
    change: "multipleOf added",
    before: { type: "number" },
    after: { type: "number", multipleOf: 0.5 },
    request: ["!request-limit-narrowed"],
    response: ["response-limit-narrowed"],
  },
  {
    change: "multipleOf 10 becomes 5",
    before: { type: "integer", multipleOf: 10 },
    after: { type: "integer", multipleOf: 5 },
    request: ["request-limit-widened"],
    response: ["!response-limit-widened"],
  },
  {
    change: "multipleOf 2 becomes 3",
    before: { type: "integer", multipleOf: 2 },
    after: { type: "integer", multipleOf: 3 },
    request: ["!request-limit-narrowed"],
    response: ["!response-limit-widened"],
  },
  {
    change: "uniqueItems set",
    before: { type: "array" },
    after: { type: "array", uniqueItems: true },
    request: ["!request-limit-narrowed"],
    response: ["response-limit-narrowed"],
  },
  {
    change: "pattern added",
    before: str,
    after: { type: "string", pattern: "^[a-z]+$" },
    request: ["!request-pattern-narrowed"],
    response: ["response-pattern-narrowed"],
  },
  {
    change: "pattern removed",
    before: { type: "string", pattern: "^[a-z]+$" },
    after: str,
    request: ["request-pattern-widened"],
    response: ["!response-pattern-widened"],
  },
  {
    change: "pattern loosened",
    before: { type: "string", pattern: "^[A-Z]{3}$" },
    after: { type: "string", pattern: "^[A-Z]{3,4}$" },
    request: ["request-pattern-widened"],
    response: ["!response-pattern-widened"],
  },
  {
    change: "pattern alternative added",
    before: { type: "string", pattern: "^(EUR|USD)$" },
    after: { type: "string", pattern: "^(EUR|USD|GBP)$" },
    request: ["request-pattern-widened"],
    response: ["!response-pattern-widened"],
  },
  {
    change: "pattern tightened",
    before: { type: "string", pattern: "^[a-z]{1,64}$" },
    after: { type: "string", pattern: "^[a-z]{1,63}$" },
    request: ["!request-pattern-narrowed"],
    response: ["response-pattern-narrowed"],
  },
  {
    change: "pattern replaced",
    before: { type: "string", pattern: "^[a-z]+$" },
    after: { type: "string", pattern: "^[0-9]+$" },
    request: ["!pattern-changed"],
    response: ["!pattern-changed"],
  },
  {
    change: "pattern rewritten",
    before: { type: "string", pattern: "^[0-9]+$" },
    after: { type: "string", pattern: "^\\d+$" },
    request: ["pattern-rewritten"],
    response: ["pattern-rewritten"],
  },
  {
    change: "optional property added",
    before: object({ a: str }),
    after: object({ a: str, b: str }),
    request: ["request-property-added"],
    response: ["response-property-added"],
  },
  {
    change: "required property added",
    before: object({ a: str }),
    after: object({ a: str, b: str }, ["b"]),
    request: ["!request-property-required-added"],
    response: ["response-property-added"],
  },
  {
    change: "property removed",
    before: object({ a: str, b: str }),
    after: object({ a: str }),
    request: ["!request-property-removed"],
    response: ["!response-property-removed"],
  },
  {
    change: "property becomes required",
    before: object({ a: str }),
    after: object({ a: str }, ["a"]),
    request: ["!request-property-became-required"],
    response: ["response-property-became-required"],
  },
  {
    change: "property becomes optional",
    before: object({ a: str }, ["a"]),
    after: object({ a: str }),
    request: ["request-property-became-optional"],
    response: ["!response-property-became-optional"],
  },
  {
    change: "required names an undeclared property",
    before: object({ a: str }, ["a"]),
    after: object({ a: str }, ["a", "b"]),
    request: ["!request-property-required-added"],
    response: ["response-property-added"],
  },
  {
    change: "property becomes readOnly",
    before: object({ a: str }),
    after: object({ a: { ...str, readOnly: true } }),
    request: ["!request-property-read-only"],
    response: [],
  },
  {
    change: "property deprecated, with a sunset date",
    before: object({ a: str }),
    after: object({ a: { ...str, deprecated: true, "x-sunset": "2027-06-30" } }),
    request: ["property-deprecated"],
    response: ["property-deprecated"],
  },
  {
    change: "property becomes writeOnly",
    before: object({ a: str }),
    after: object({ a: { ...str, writeOnly: true } }),
    request: [],
    response: ["!response-property-write-only"],
  },
  {
    change: "additionalProperties: false",
    before: object({ a: str }),
    after: object({ a: str }, [], { additionalProperties: false }),
    request: ["!request-additional-properties-narrowed"],
    response: ["response-additional-properties-changed"],
  },
  {
    change: "additionalProperties: false dropped",
    before: object({ a: str }, [], { additionalProperties: false }),
    after: object({ a: str }),
    request: ["request-additional-properties-widened"],
    response: ["response-additional-properties-changed"],
  },
  {
    change: "map values widened",
    before: { type: "object", additionalProperties: str },
    after: { type: "object", additionalProperties: { type: ["string", "null"] } },
    request: ["request-type-widened"],
    response: ["!response-type-widened"],
  },
  {
    change: "anyOf branch added",
    before: { anyOf: [str, { type: "integer" }] },
    after: { anyOf: [str, { type: "integer" }, { type: "boolean" }] },
    request: ["request-union-widened"],
    response: ["!response-union-widened"],
  },
  {
    change: "oneOf branch removed",
    before: { oneOf: [object({ kind: { const: "a" } }), object({ kind: { const: "b" } })] },
    after: { oneOf: [object({ kind: { const: "a" } })] },
    request: ["!request-union-narrowed"],
    response: ["response-union-narrowed"],
  },
  {
    change: "oneOf branches reordered",
    before: {
      oneOf: [
        object({ kind: { const: "a" } }, ["kind"]),
        object({ kind: { const: "b" }, n: { type: "integer" } }, ["kind"]),
      ],
    },
    after: {
      oneOf: [
        object({ kind: { const: "b" }, n: { type: "integer" } }, ["kind"]),
        object({ kind: { const: "a" } }, ["kind"]),
      ],
    },
    request: [],
    response: [],
  },
  {
    change: "a reordered branch changes",
    before: { anyOf: [str, object({ a: str })] },
    after: { anyOf: [object({ a: str, b: str }), str] },
    request: ["request-property-added"],
    response: ["response-property-added"],
  },
  {
    change: "scalar becomes a union with it",
    before: str,
    after: { anyOf: [str, { type: "integer" }] },
    request: ["request-union-widened"],
    response: ["!response-union-widened"],
  },
  {
    change: "anyOf becomes oneOf, branches can overlap",
    before: { anyOf: [object({ a: str }), object({ b: str })] },
    after: { oneOf: [object({ a: str }), object({ b: str })] },
    request: ["!request-union-narrowed"],
    response: ["response-union-narrowed"],
  },
  {
    change: "oneOf becomes anyOf, branches can overlap",
    before: { oneOf: [str, { type: "string", format: "email" }] },
    after: { anyOf: [str, { type: "string", format: "email" }] },
    request: ["request-union-widened"],
    response: ["!response-union-widened"],
  },
  {
    change: "anyOf becomes oneOf, branches cannot overlap",
    before: { anyOf: [str, { type: "integer" }] },
    after: { oneOf: [str, { type: "integer" }] },
    request: [],
    response: [],
  },
  {
    change: "discriminator added that the branches do not imply",
    before: {
      oneOf: [{ $ref: "#/components/schemas/Card" }, { $ref: "#/components/schemas/Bank" }],
    },
    after: {
      oneOf: [{ $ref: "#/components/schemas/Card" }, { $ref: "#/components/schemas/Bank" }],
      discriminator: { propertyName: "kind" },
    },
    request: ["!request-discriminator-narrowed"],
    response: ["response-discriminator-narrowed"],
  },
  {
    change: "discriminator removed",
    before: {
      oneOf: [{ $ref: "#/components/schemas/Card" }, { $ref: "#/components/schemas/Bank" }],
      discriminator: { propertyName: "kind" },
    },
    after: {
      oneOf: [{ $ref: "#/components/schemas/Card" }, { $ref: "#/components/schemas/Bank" }],
    },
    request: ["request-discriminator-widened"],
    response: ["!response-discriminator-widened"],
  },
  {
    change: "discriminator added that the branches already imply",
    before: {
      oneOf: [
        { $ref: "#/components/schemas/TaggedCard" },
        { $ref: "#/components/schemas/TaggedBank" },
      ],
    },
    after: {
      oneOf: [
        { $ref: "#/components/schemas/TaggedCard" },
        { $ref: "#/components/schemas/TaggedBank" },
      ],
      discriminator: {
        propertyName: "kind",
        mapping: {
          card: "#/components/schemas/TaggedCard",
          bank: "#/components/schemas/TaggedBank",
        },
      },
    },
    request: [],
    response: [],
  },
  {
    change: "discriminator maps one value fewer",
    before: {
      oneOf: [{ $ref: "#/components/schemas/Card" }, { $ref: "#/components/schemas/Bank" }],
      discriminator: {
        propertyName: "kind",
        mapping: {
          card: "#/components/schemas/Card",
          debit: "#/components/schemas/Card",
          bank: "#/components/schemas/Bank",
        },
      },
    },
    after: {
      oneOf: [{ $ref: "#/components/schemas/Card" }, { $ref: "#/components/schemas/Bank" }],
      discriminator: {
        propertyName: "kind",
        mapping: { card: "#/components/schemas/Card", bank: "#/components/schemas/Bank" },
      },
    },
    request: ["!request-discriminator-narrowed"],
    response: ["response-discriminator-narrowed"],
  },
  {
    change: "discriminator renamed",
    before: { oneOf: [object({ kind: str })], discriminator: { propertyName: "kind" } },
    after: { oneOf: [object({ kind: str })], discriminator: { propertyName: "type" } },
    request: ["!discriminator-changed"],
    response: ["!discriminator-changed"],
  },
  {
    change: "items narrowed",
    before: { type: "array", items: { type: ["string", "null"] } },
    after: { type: "array", items: str },
    request: ["!request-type-narrowed"],
    response: ["response-type-narrowed"],
  },
  {
    change: "a keyword beside a $ref",
    before: { $ref: "#/components/schemas/Name" },
    after: { $ref: "#/components/schemas/Name", maxLength: 10 },
    request: ["!request-limit-narrowed"],
    response: ["response-limit-narrowed"],
  },
  {
    change: "the same schema under another name",
    before: { $ref: "#/components/schemas/Name" },
    after: { $ref: "#/components/schemas/Label" },
    request: [],
    response: [],
  },
  {
    change: "an annotation",
    before: { ...str, description: "a" },
    after: { ...str, description: "b", example: "x" },
    request: [],
    response: [],
  },
];

const tagged = (kind: string, more: Json) => object({ kind: { const: kind }, ...more }, ["kind"]);

const named = (doc: OpenApiDocument) => {
  (doc.components as Json).schemas = {
    Name: str,
    Label: str,
    Card: object({ kind: str, number: str }),
    Bank: object({ kind: str, iban: str }),
    TaggedCard: tagged("card", { number: str }),
    TaggedBank: tagged("bank", { iban: str }),
  };
  return doc;
};

describe("schema rules, on both sides", () => {
  it.each(schemaCases)("$change", ({ before, after, request, response }) => {
    expectRules(named(accepting(before)), named(accepting(after)), request);
    expectRules(named(responding(before)), named(responding(after)), response);
  });

  it("a default changed in a request breaks clients that leave the value out", () => {
    const param = (value: string) => ({
      name: "status",
      in: "query",
      schema: { ...str, default: value },
    });
    expectRules(operation([param("Registered")]), operation([param("Pending")]), [
      "!request-default-changed",
    ]);
  });
});

describe("parameter rules", () => {
  const query = (name: string, more: Json = {}) => ({ name, in: "query", schema: str, ...more });
  const header = (name: string, more: Json = {}) => ({ name, in: "header", schema: str, ...more });

  it.each([
    ["a parameter removed", [query("q")], [], ["!parameter-removed"]],
    [
      "a required parameter added",
      [],
      [query("q", { required: true })],
      ["!parameter-required-added"],
    ],
    ["an optional parameter added", [], [query("q")], ["parameter-added"]],
    [
      "a parameter becomes required",
      [query("q")],
      [query("q", { required: true })],
      ["!parameter-became-required"],
    ],
    [
      "a parameter becomes optional",
      [query("q", { required: true })],
      [query("q")],
      ["parameter-became-optional"],
    ],
    [
      "a parameter deprecated",
      [query("q")],
      [query("q", { deprecated: true })],
      ["parameter-deprecated"],
    ],
    [
      "explode turned off",
      [query("ids", { schema: { type: "array" } })],
      [query("ids", { schema: { type: "array" }, explode: false })],
      ["!parameter-serialization-changed"],
    ],
    [
      "explode spelled out as its default",
      [query("ids")],
      [query("ids", { style: "form", explode: true })],
      [],
    ],
    [
      "schema moved into content",
      [query("f")],
      [query("f", { schema: undefined, content: { "application/json": { schema: str } } })],
      ["!parameter-serialization-changed"],
    ],
    [
      "a header name changes case only",
      [header("X-Sub-Partner-Id")],
      [header("X-SUB-PARTNER-ID")],
      [],
    ],
    [
      "a parameter narrowed",
      [query("q", { schema: { type: "string", maxLength: 9 } })],
      [query("q", { schema: { type: "string", maxLength: 5 } })],
      ["!request-limit-narrowed"],
    ],
  ] as const)("%s", (_, before, after, rules) => {
    expectRules(operation([...before]), operation([...after]), [...rules]);
  });

  it("a renamed path variable is the same operation and the same parameter", () => {
    expectRules(operation([], {}, "/things/{id}"), operation([], {}, "/things/{thing_id}"), []);
  });
});

describe("operation rules", () => {
  it.each([
    ["an operation removed", operation(), document({}), ["!operation-removed"]],
    ["an operation added", document({}), operation(), ["operation-added"]],
    [
      "an operationId changed",
      operation(),
      operation([], { operationId: "fetchThing" }),
      ["!operation-id-changed"],
    ],
    [
      "an operation deprecated",
      operation(),
      operation([], { deprecated: true }),
      ["operation-deprecated"],
    ],
    [
      "an operation deprecated with a sunset date",
      operation(),
      operation([], { deprecated: true, "x-sunset": "2027-06-30" }),
      ["operation-deprecated"],
    ],
  ] as const)("%s", (_, before, after, rules) => {
    expectRules(before, after, [...rules]);
  });
});

it("a deprecation's detail names its x-sunset date", () => {
  const { additions } = diffSpecs(
    operation(),
    operation([], { deprecated: true, "x-sunset": "2027-06-30" }),
  );
  expect(additions.map((change) => change.message)).toEqual([
    "operation deprecated, sunset 2027-06-30",
  ]);
});

describe("request body rules", () => {
  const body = (required: boolean, content: Json = { "application/json": { schema: {} } }) => ({
    requestBody: { required, content },
  });
  it.each([
    ["a body removed", body(true), {}, ["!request-body-removed"]],
    ["a required body added", {}, body(true), ["!request-body-required-added"]],
    ["an optional body added", {}, body(false), ["request-body-added"]],
    ["a body becomes required", body(false), body(true), ["!request-body-required-added"]],
    ["a body becomes optional", body(true), body(false), ["request-body-became-optional"]],
    [
      "a media type removed",
      body(true, { "application/json": {}, "text/csv": {} }),
      body(true),
      ["!request-media-type-removed"],
    ],
    [
      "a media type added",
      body(true),
      body(true, { "application/json": {}, "text/csv": {} }),
      ["request-media-type-added"],
    ],
    [
      "a charset parameter added",
      body(true),
      body(true, { "application/json; charset=utf-8": {} }),
      [],
    ],
  ] as const)("%s", (_, before, after, rules) => {
    expectRules(operation([], before), operation([], after), [...rules]);
  });
});

describe("response rules", () => {
  const json = { "application/json": { schema: {} } };
  const responses = (entries: Json) => ({ responses: entries });
  it.each([
    [
      "200 becomes 201",
      { "200": { description: "", content: json } },
      { "201": { description: "", content: json } },
      ["!response-success-status-added", "response-status-removed"],
    ],
    [
      "the only success removed",
      { "200": { description: "", content: json }, default: { description: "" } },
      { default: { description: "" } },
      ["!response-success-removed"],
    ],
    [
      "a second success status added",
      { "200": { description: "" } },
      { "200": { description: "" }, "202": { description: "" } },
      ["!response-success-status-added"],
    ],
    [
      "one of two success statuses removed",
      { "200": { description: "" }, "202": { description: "" } },
      { "200": { description: "" } },
      ["response-status-removed"],
    ],
    [
      "an error status added",
      { "200": { description: "" } },
      { "200": { description: "" }, "404": { description: "" } },
      ["response-error-status-added"],
    ],
    [
      "an error status declared under a default",
      { "200": { description: "" }, default: { description: "" } },
      { "200": { description: "" }, "404": { description: "" }, default: { description: "" } },
      [],
    ],
    [
      "200 under a 2XX range",
      { "2XX": { description: "", content: json } },
      { "200": { description: "", content: json } },
      [],
    ],
    [
      "a body removed",
      { "200": { description: "", content: json } },
      { "200": { description: "" } },
      ["!response-body-removed"],
    ],
    [
      "a body added",
      { "200": { description: "" } },
      { "200": { description: "", content: json } },
      ["response-body-added"],
    ],
    [
      "a media type removed",
      { "200": { description: "", content: { ...json, "text/csv": {} } } },
      { "200": { description: "", content: json } },
      ["!response-media-type-removed"],
    ],
    [
      "a media type added",
      { "200": { description: "", content: json } },
      { "200": { description: "", content: { ...json, "text/csv": {} } } },
      ["response-media-type-added"],
    ],
    [
      "a header removed",
      { "200": { description: "", headers: { "X-Request-Id": { schema: str } } } },
      { "200": { description: "" } },
      ["!response-header-removed"],
    ],
    [
      "a header added",
      { "200": { description: "" } },
      { "200": { description: "", headers: { "X-Request-Id": { schema: str } } } },
      ["response-header-added"],
    ],
    [
      "a header becomes optional",
      { "200": { description: "", headers: { "X-Request-Id": { required: true, schema: str } } } },
      { "200": { description: "", headers: { "x-request-id": { schema: str } } } },
      ["!response-header-became-optional"],
    ],
    [
      "a header becomes required",
      { "200": { description: "", headers: { "X-Request-Id": { schema: str } } } },
      { "200": { description: "", headers: { "X-Request-Id": { required: true, schema: str } } } },
      ["response-header-became-required"],
    ],
  ] as const)("%s", (_, before, after, rules) => {
    expectRules(operation([], responses(before)), operation([], responses(after)), [...rules]);
  });
});

describe("security and server rules", () => {
  const schemes = (securitySchemes: Json) => ({ components: { securitySchemes } });
  const inHeader = { type: "apiKey", in: "header", name: "X-API-Key" };
  const withSecurity = (security: Json[], more: Json = {}) =>
    document(operation().paths as Json, { security, ...more });

  it.each([
    [
      "the key moved from header to query",
      withSecurity([{ key: [] }]),
      withSecurity(
        [{ key: [] }],
        schemes({ key: { type: "apiKey", in: "query", name: "api_key" } }),
      ),
      ["!security-narrowed"],
    ],
    [
      "a second scheme required together with the key",
      withSecurity([{ key: [] }]),
      withSecurity(
        [{ key: [], bearer: [] }],
        schemes({ key: inHeader, bearer: { type: "http", scheme: "bearer" } }),
      ),
      ["!security-narrowed"],
    ],
    [
      "security required where there was none",
      withSecurity([]),
      withSecurity([{ key: [] }]),
      ["!security-narrowed"],
    ],
    [
      "a bearer token accepted as an alternative",
      withSecurity([{ key: [] }]),
      withSecurity(
        [{ key: [] }, { bearer: [] }],
        schemes({ key: inHeader, bearer: { type: "http", scheme: "bearer" } }),
      ),
      ["security-widened"],
    ],
    [
      "the scheme renamed, the same key",
      withSecurity([{ key: [] }]),
      withSecurity([{ apiKey: [] }], schemes({ apiKey: inHeader })),
      [],
    ],
    [
      "the key's header name changes case only",
      withSecurity([{ key: [] }]),
      withSecurity([{ key: [] }], schemes({ key: { ...inHeader, name: "x-api-key" } })),
      [],
    ],
  ] as const)("%s", (_, before, after, rules) => {
    expectRules(before, after, [...rules]);
  });

  const servers = (...list: Json[]) => document({}, { servers: list });
  it.each([
    [
      "a server removed",
      servers({ url: "https://a.example" }, { url: "https://b.example" }),
      servers({ url: "https://a.example" }),
      ["!server-removed"],
    ],
    [
      "a server added",
      servers({ url: "https://a.example" }),
      servers({ url: "https://a.example" }, { url: "https://b.example" }),
      ["server-added"],
    ],
    [
      "a server URL becomes a variable whose default it is",
      servers({ url: "https://a.example/api" }),
      servers({ url: "{base}", variables: { base: { default: "https://a.example/api" } } }),
      [],
    ],
    [
      "an enumerated variable loses a value",
      servers({
        url: "https://{region}.example",
        variables: { region: { default: "eu", enum: ["eu", "us"] } },
      }),
      servers({
        url: "https://{region}.example",
        variables: { region: { default: "eu", enum: ["eu"] } },
      }),
      ["!server-removed"],
    ],
  ] as const)("%s", (_, before, after, rules) => {
    expectRules(before, after, [...rules]);
  });
});

describe("the rules themselves", () => {
  it("every wire rule has a before/after pair above (package rules: diff-packages.test.ts)", () => {
    const wireRules = Object.keys(RULES).filter((rule) => !rule.startsWith("package-"));
    expect([...seen].sort()).toEqual(wireRules.sort());
  });

  it("openapi/README.md's policy table gives every rule, with what it breaks as the code decides", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const table = new Map(
      [...readme.matchAll(/^\| `([a-z-]+)` +\| (wire|packages|both|no) +\|/gm)].map((row) => [
        row[1],
        row[2],
      ]),
    );
    expect([...table.keys()].sort()).toEqual(Object.keys(RULES).sort());
    for (const [rule, { breaks, breaking, fix }] of Object.entries(RULES)) {
      expect(table.get(rule), rule).toBe(breaks);
      expect(breaking, rule).toBe(breaks !== "no");
      if (breaking) expect(fix, rule).toBeTruthy();
    }
  });
});

describe("messages", () => {
  it("name the operation, the location and the rule, and say how to make the change safely", () => {
    const before = accepting(object({ currency: { type: "string", enum: ["EUR", "USD"] } }));
    const after = accepting(object({ currency: { type: "string", enum: ["EUR"] } }));
    const [change] = diffSpecs(before, after).breaking;
    expect(change).toEqual({
      where: "createThing (POST /things) request application/json body.currency",
      operation: "createThing (POST /things)",
      location: "request application/json body.currency",
      rule: "request-enum-narrowed",
      message: expect.stringMatching(/^enum value "USD" removed; keep accepting the values/),
    });
  });
});
