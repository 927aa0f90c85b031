// The mock's words for a request's problems, found on a value that no reading of the request
// bounded: a body far deeper than any the mock reads is named by its kind, not serialised.
import { fileURLToPath } from "node:url";
import { fixtureSpecPath } from "@org/payments-testing";
import { beforeAll, describe, expect, it } from "vitest";
import { createPrismEngine, type PrismEngine } from "../../src/engine/prism-engine.js";
import { refusalStatus, requestProblems } from "../../src/engine/request-problems.js";

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

describe("a field ruled out by the fields sent with it", () => {
  // Generic: a tiny spec whose body's if/then rules rule fields out (exclusive-fields.yaml).
  const exclusiveSpec = fileURLToPath(
    new URL("../fixtures/specs/exclusive-fields.yaml", import.meta.url),
  );
  let exclusive: PrismEngine;
  beforeAll(async () => {
    exclusive = await createPrismEngine(exclusiveSpec, false);
  });

  const problemsOf = async (body: unknown) => {
    const sent = {
      method: "POST",
      path: "/rules",
      query: {},
      headers: { "content-type": "application/json" },
      body,
    };
    const outcome = await exclusive.handle(sent);
    if (outcome.kind !== "response") throw new Error(`not routed: ${outcome.detail}`);
    return requestProblems(exclusive, outcome.routed.operation, sent, [], outcome.inputProblems);
  };
  const forbidden = (field: string, message: string) => ({
    location: "body",
    field,
    rule: "false schema",
    message,
  });

  it("names the fields sent that rule each one out, at the top, nested and in items", async () => {
    const problems = await problemsOf({
      operation: "create",
      topic: "Created",
      status: 503,
      drop: "before",
      target: { iban: "DE00", address: "0xabc" },
      legs: [{ amount: "1" }, { all: true, amount: "2" }],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        forbidden("topic", 'is not allowed with operation; got "Created"'),
        forbidden("status", "is not allowed with topic; got 503"),
        forbidden("drop", 'is not allowed with topic and status; got "before"'),
        forbidden("target.iban", 'is not allowed with topic; got "DE00"'),
        forbidden("target.address", 'is not allowed with target.iban; got "0xabc"'),
        forbidden("legs.1.amount", 'is not allowed with legs.1.all; got "2"'),
      ]),
    );
    expect(problems.filter((problem) => problem.rule === "false schema")).toHaveLength(6);
  });

  it("says a field no fields sent rule out as before", async () => {
    expect(await problemsOf({ legacy: 1 })).toEqual([
      forbidden(
        "legacy",
        "is not allowed with the other fields sent (the document's rules for this body say which go together); got 1",
      ),
    ]);
  });

  it.each<[string, unknown]>([
    ["null", null],
    ["an array", [{ operation: "create", topic: "Created" }]],
    ["1000 levels deep", { operation: "create", topic: "Created", target: deepObject(1000) }],
    ["1000 arrays deep in items", { legs: [JSON.parse(`${"[".repeat(1000)}${"]".repeat(1000)}`)] }],
  ])("refuses a body that is %s, saying why", async (_, body) => {
    const problems = await problemsOf(body);
    expect(problems.length).toBeGreaterThan(0);
    expect(refusalStatus(problems)).toBe(422);
    for (const problem of problems) expect(problem.message).toEqual(expect.any(String));
  });
});

/** `{ address: { address: … { iban: "x" } } }`, `levels` deep. */
function deepObject(levels: number): unknown {
  let value: unknown = { iban: "x" };
  for (let level = 0; level < levels; level++) value = { address: value };
  return value;
}
