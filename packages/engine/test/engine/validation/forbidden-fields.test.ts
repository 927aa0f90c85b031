// A field the body's if/then rules rule out is said naming the fields sent that rule it out, read
// from the schema; a `false` the fields sent do not explain is said as before.
import { describe, expect, it } from "vitest";
import { namedForbiddenFields } from "../../../src/engine/validation/forbidden-fields.js";
import { NOT_ALLOWED_TOGETHER } from "../../../src/engine/validation/schema-messages.js";
import type { ProblemError } from "../../../src/http/problem.js";

const forbidden = (field: string, got = ""): ProblemError => ({
  location: "body",
  field,
  rule: "false schema",
  message: `${NOT_ALLOWED_TOGETHER}${got}`,
});

const notAllowedWith = (field: string, fields: string, got = ""): ProblemError => ({
  ...forbidden(field),
  message: `is not allowed with ${fields}${got}`,
});

/** `if` the fields are sent, `then` `field` may not be. */
const rule = (required: string[], field: string) => ({
  if: { required },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then
  then: { properties: { [field]: false }, additionalProperties: true },
});

describe("a field ruled out by other fields sent", () => {
  it("names the field whose rule holds, keeping what came", () => {
    const schema = { allOf: [rule(["operation"], "topic"), rule(["topic"], "status")] };
    const body = { operation: "create", topic: "Created", status: 503 };
    const errors = [forbidden("topic", '; got "Created"'), forbidden("status", "; got 503")];
    expect(namedForbiddenFields(errors, schema, body)).toEqual([
      notAllowedWith("topic", "operation", '; got "Created"'),
      notAllowedWith("status", "topic", "; got 503"),
    ]);
  });

  it("names each field whose rule rules it out, once", () => {
    const schema = {
      allOf: [rule(["status"], "drop"), rule(["topic"], "drop"), rule(["topic", "status"], "drop")],
    };
    const body = { topic: "Created", status: 503, drop: "before" };
    expect(namedForbiddenFields([forbidden("drop")], schema, body)).toEqual([
      notAllowedWith("drop", "status and topic"),
    ]);
  });

  it("finds the rule of a nested object, and names its field by its path", () => {
    const schema = {
      properties: { target: { allOf: [{ allOf: [rule(["iban"], "address")] }] } },
    };
    const body = { target: { iban: "DE00", address: "0xabc" } };
    expect(namedForbiddenFields([forbidden("target.address")], schema, body)).toEqual([
      notAllowedWith("target.address", "target.iban"),
    ]);
  });

  it("finds a rule of the body about a field of a nested object", () => {
    const schema = {
      allOf: [
        {
          if: { required: ["topic"] },
          // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then
          then: { properties: { match: { properties: { sub_partner_id: false } } } },
        },
      ],
    };
    const body = { topic: "Created", match: { sub_partner_id: "x" } };
    expect(namedForbiddenFields([forbidden("match.sub_partner_id")], schema, body)).toEqual([
      notAllowedWith("match.sub_partner_id", "topic"),
    ]);
  });

  it("finds the rule of an array's items, told by the item sent", () => {
    const schema = { properties: { legs: { items: rule(["all"], "amount") } } };
    const body = { legs: [{ amount: "1" }, { all: true, amount: "2" }] };
    expect(namedForbiddenFields([forbidden("legs.1.amount")], schema, body)).toEqual([
      notAllowedWith("legs.1.amount", "legs.1.all"),
    ]);
  });

  it.each<[string, unknown, unknown]>([
    ["a field no rule allows", { properties: { legacy: false } }, { legacy: 1 }],
    [
      "a field also ruled out for good",
      { properties: { topic: false }, allOf: [rule(["operation"], "topic")] },
      { operation: "create", topic: "Created" },
    ],
    [
      "a rule whose if tests a value",
      {
        if: { required: ["kind"], properties: { kind: { const: "a" } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then
        then: { properties: { topic: false } },
      },
      { kind: "a", topic: "Created" },
    ],
    [
      "an else",
      { if: { required: ["operation"] }, else: { properties: { topic: false } } },
      { topic: "Created" },
    ],
    ["a rule whose fields were not sent", rule(["operation"], "topic"), { topic: "Created" }],
  ])("says %s as before", (_, schema, body) => {
    expect(namedForbiddenFields([forbidden("topic")], schema, body)).toEqual([forbidden("topic")]);
  });

  it("leaves other problems and other words alone", () => {
    const schema = rule(["operation"], "topic");
    const errors: ProblemError[] = [
      { location: "body", field: "operation", rule: "type", message: "must be a string" },
      { location: "query", field: "topic", rule: "false schema", message: NOT_ALLOWED_TOGETHER },
      { ...forbidden("topic"), message: "said otherwise" },
      forbidden(""),
    ];
    expect(namedForbiddenFields(errors, schema, { operation: "x", topic: "y" })).toEqual(errors);
  });

  it.each<[string, unknown]>([
    ["null", null],
    ["an array", [{ operation: "x", topic: "y" }]],
    ["a string", "operation"],
    ["an object without its fields", { __proto__: { operation: "x" } }],
  ])("takes a body that is %s", (_, body) => {
    const schema = rule(["operation"], "topic");
    expect(namedForbiddenFields([forbidden("topic")], schema, body)).toEqual([forbidden("topic")]);
  });

  it("walks a 1000-deep body on a schema that refers to itself", () => {
    const node: Record<string, unknown> = { allOf: [rule(["a"], "b")] };
    node.properties = { next: node };
    node.allOf = [rule(["a"], "b"), node];
    let body: Record<string, unknown> = { a: 1, b: 2 };
    for (let level = 0; level < 1000; level++) body = { next: body };
    const field = `${"next.".repeat(1000)}b`;
    expect(namedForbiddenFields([forbidden(field)], node, body)).toEqual([
      notAllowedWith(field, `${"next.".repeat(1000)}a`),
    ]);
    const lost = `${"next.".repeat(999)}x.b`;
    expect(namedForbiddenFields([forbidden(lost)], node, body)).toEqual([forbidden(lost)]);
  });
});
