// A body whose rules are about its own fields (one of two, a field left out when another is
// given) becomes arguments of their own with those rules, and a call that breaks one is told
// which fields, in one sentence, before anything is sent.
import { listOperations, type OpenApiDocument } from "@org/payments-spec";
import { describe, expect, it } from "vitest";
import { toolOf } from "../scripts/generate.ts";
import { argumentProblems } from "../src/arguments.ts";

/** A rule like the sandbox's fault rules: on an operation or a topic, and what goes with each. */
const ruleBody = {
  type: "object",
  additionalProperties: false,
  properties: {
    operation_id: { type: "string" },
    topic: { type: "string" },
    status: { type: "integer", minimum: 400, maximum: 599 },
    delay_ms: { type: "integer", minimum: 1 },
    delivery: { type: "string", enum: ["duplicate", "drop"] },
  },
  allOf: [
    { anyOf: [{ required: ["operation_id"] }, { required: ["topic"] }] },
    {
      if: { required: ["operation_id"] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then
      then: {
        properties: { topic: false, delivery: false },
        additionalProperties: true,
        anyOf: [{ required: ["status"] }, { required: ["delay_ms"] }],
      },
    },
    {
      if: { required: ["topic"] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then
      then: { properties: { status: false, delay_ms: false }, required: ["delivery"] },
    },
  ],
};

const doc = {
  openapi: "3.1.0",
  info: { title: "rules", version: "1" },
  paths: {
    "/_sandbox/rules": {
      post: {
        operationId: "armRule",
        requestBody: { required: true, content: { "application/json": { schema: ruleBody } } },
        responses: { "201": { description: "armed" } },
      },
    },
  },
} as unknown as OpenApiDocument;

const [entry] = listOperations(doc);
const tool = toolOf(doc, "test-mode", entry as NonNullable<typeof entry>);

describe("a body with rules about its fields", () => {
  it("is flattened into arguments, its rules kept in the tool's schema and its listed one", () => {
    expect(Object.keys(tool.arguments)).toEqual(Object.keys(ruleBody.properties));
    expect(tool.inputSchema.allOf).toHaveLength(3);
    expect(tool.listedInputSchema.allOf).toEqual(tool.inputSchema.allOf);
  });

  it.each([
    [{}, ["give one of `operation_id` or `topic`"]],
    [{ operation_id: "createCustomer" }, ["give one of `status` or `delay_ms`"]],
    [
      { operation_id: "createCustomer", topic: "Ping", status: 503 },
      [
        "`topic` cannot be given with `operation_id`",
        "`status` cannot be given with `topic`",
        "`delivery` is required",
      ],
    ],
    [{ operation_id: "createCustomer", status: 503 }, []],
    [{ topic: "Ping", delivery: "drop" }, []],
  ])("%j: %j", (args, problems) => {
    expect(argumentProblems(tool.inputSchema, args).sort()).toEqual([...problems].sort());
  });
});

describe("a call with a problem in each of many items", () => {
  it("is told the first 50 problems and how many more, where it was an internal error", () => {
    const schema = {
      type: "object",
      properties: { ids: { type: "array", items: { type: "string", format: "uuid" } } },
      additionalProperties: false,
    };
    const problems = argumentProblems(schema, { ids: Array(200_000).fill("x") });
    expect(problems).toHaveLength(51);
    expect(problems[0]).toBe(
      '`ids[0]` must be a UUID, such as "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f"',
    );
    expect(problems.at(-1)).toBe("199950 more problems like these");
  });
});
