// The mock's words for a request's problems, found on a value that no reading of the request
// bounded: a body far deeper than any the mock reads is named by its kind, not serialised.
import { fixtureSpecPath } from "@org/payments-testing";
import { beforeAll, describe, expect, it } from "vitest";
import { createPrismEngine, type PrismEngine } from "../../src/engine/engine.js";
import { requestProblems } from "../../src/engine/request-problems.js";

// Generic: a tiny spec whose create takes an object body.
const itemsSpec = fixtureSpecPath("items");

let engine: PrismEngine;
beforeAll(async () => {
  engine = await createPrismEngine(itemsSpec, false);
});

const request = (body: unknown) => ({
  method: "POST",
  path: "/items",
  query: {},
  headers: {
    "x-api-key": "k",
    "idempotency-key": crypto.randomUUID(),
    "content-type": "application/json",
  },
  body,
});

describe("requestProblems", () => {
  it("names a 100,000-deep array by its kind", async () => {
    const deep = request(JSON.parse(`${"[".repeat(100_000)}${"]".repeat(100_000)}`));
    const outcome = await engine.handle(deep);
    if (outcome.kind !== "response") throw new Error(`not routed: ${outcome.detail}`);
    expect(
      requestProblems(engine, outcome.routed.operation, deep, [], outcome.inputProblems),
    ).toEqual([
      {
        location: "body",
        field: "",
        rule: "type",
        message: "must be an object; got an array",
      },
    ]);
  });
});
