import { describe, expect, it } from "vitest";
import { namedObjectRules } from "../../../src/engine/validation/object-rules.js";
import type { ProblemError } from "../../../src/http/problem.js";

const body = (field: string, rule: string, message = "m"): ProblemError => ({
  location: "body",
  field,
  rule,
  message,
});

const advance = {
  oneOf: [
    {
      type: "object",
      required: ["seconds"],
      additionalProperties: false,
      properties: { seconds: { type: "number" } },
    },
    {
      type: "object",
      required: ["to"],
      additionalProperties: false,
      properties: { to: { type: "string" } },
    },
  ],
};

describe("rules about an object's fields together", () => {
  it("names both alternatives of a oneOf when the body has neither, and drops what Ajv said of each", () => {
    const errors = [body("seconds", "required"), body("to", "required"), body("", "oneOf")];
    expect(namedObjectRules(errors, advance, {})).toEqual(
      ["seconds", "to"].map((field) =>
        body(field, "oneOf", "send exactly one of seconds or to; the body has neither"),
      ),
    );
  });

  it("names both when the body has both", () => {
    const errors = [
      body("to", "additionalProperties"),
      body("seconds", "additionalProperties"),
      body("", "oneOf"),
    ];
    expect(namedObjectRules(errors, advance, { seconds: 1, to: "x" })).toEqual(
      ["seconds", "to"].map((field) =>
        body(field, "oneOf", "send only one of seconds or to, not both"),
      ),
    );
  });

  it("keeps only what is wrong with the one alternative that applies", () => {
    const errors = [
      body("seconds", "minimum"),
      body("to", "required"),
      body("seconds", "additionalProperties"),
      body("x", "additionalProperties"),
      body("", "oneOf"),
    ];
    expect(namedObjectRules(errors, advance, { seconds: -1, x: 1 })).toEqual([
      body("seconds", "minimum"),
      body("x", "additionalProperties"),
    ]);
  });

  it("names the fields a `not` rules out together, in a nested object", () => {
    const schema = {
      properties: { deposit: { not: { required: ["currency", "source_currency"] } } },
    };
    const value = { deposit: { currency: "EUR", source_currency: "EUR" } };
    expect(namedObjectRules([body("deposit", "not")], schema, value)).toEqual(
      ["deposit.currency", "deposit.source_currency"].map((field) =>
        body(field, "not", "send currency or source_currency, not both"),
      ),
    );
  });

  it("says which field's value lifts an if/else rule", () => {
    const schema = {
      properties: { status: { type: "string" }, force: { type: "boolean" } },
      if: { required: ["force"], properties: { force: { const: true } } },
      else: { properties: { status: { enum: ["A"] } } },
    };
    const errors = [
      body("status", "enum", "must be one of A"),
      body("", "if", 'must match "else" schema'),
    ];
    expect(namedObjectRules(errors, schema, { status: "B" })).toEqual([
      body("status", "enum", 'must be one of A (or send "force": true)'),
    ]);
  });

  it("names the fields of an object with too few", () => {
    const schema = { minProperties: 1, properties: { a: {}, b: {} } };
    expect(namedObjectRules([body("", "minProperties")], schema, {})).toEqual([
      body("", "minProperties", "must have at least 1 of the fields a, b"),
    ]);
  });

  it("leaves a rule it cannot tell the fields of as it was", () => {
    const schema = { anyOf: [{ type: "string" }, { type: "number" }] };
    const errors = [body("", "anyOf", "must match one of the alternatives the spec allows")];
    expect(namedObjectRules(errors, schema, true)).toEqual(errors);
  });
});
