// The `Prefer` request header, as Prism users know it: code=, example=, dynamic= (and seed=).
// Prefer is the mock's, not the API's: it is tested on a tiny spec, and on the API's spec only where
// the sandbox answers (its data must stay untouched).
import { loadSpec, specPath } from "@org/payments-spec";
import {
  answerChecks,
  fixtureSpecPath,
  type SentResponse,
  type SpecRequest,
  send,
  undeclaredAnswer,
  validRequest,
} from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Problem, type RunningMock, startMock } from "../src/index.js";

const preferSpec = fixtureSpecPath("prefer");
const fixture = answerChecks(loadSpec(preferSpec));

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ spec: preferSpec });
});
afterAll(() => mock?.stop());

const thingRequest = (operationId: string, method: string): SpecRequest => ({
  operationId,
  method,
  path: "/things",
  pathParams: {},
  query: {},
  headers: { "X-API-Key": "test-api-key-not-a-secret" },
});
const createThing: SpecRequest = {
  ...thingRequest("createThing", "POST"),
  headers: {
    ...thingRequest("createThing", "POST").headers,
    "Content-Type": "application/json; charset=utf-8",
  },
};
const listThings = thingRequest("listThings", "GET");
const business = { kind: "Business", email: "finance@example.com" };

function preferring(prefer: string, base = createThing) {
  return { ...base, headers: { ...base.headers, Prefer: prefer } };
}

const createThingWith = (prefer: string) =>
  send(mock.url, { ...preferring(prefer), body: business });

describe("Prefer: code=", () => {
  it("answers a declared error status with the mock's problem body, declared by the spec", async () => {
    const answer = await createThingWith("code=404");
    expect(answer.status).toBe(404);
    expect(answer.body as Problem).toMatchObject({
      status: 404,
      errors: [{ location: "header", field: "Prefer", rule: "code" }],
    });
    expect(fixture.undeclaredAnswer("createThing", answer)).toEqual([]);
  });

  it("answers 200 with the example when asked for 200", async () => {
    const answer = await createThingWith("code=200");
    expect(answer.status).toBe(200);
    expect(fixture.responseProblems("createThing", answer.body)).toEqual([]);
  });

  it("refuses a code that is not a status, naming the header", async () => {
    const answer = await createThingWith("code=abc");
    expect(answer.status).toBe(422);
    expect(answer.body as Problem).toMatchObject({
      errors: [{ location: "header", field: "Prefer", rule: "code" }],
    });
  });

  it("does not override the validation of an invalid request", async () => {
    const answer = await send(mock.url, { ...preferring("code=200"), body: {} });
    expect(answer.status).toBe(422);
    expect((answer.body as Problem).errors).toContainEqual(
      expect.objectContaining({ location: "body", field: "kind", rule: "required" }),
    );
  });
});

describe("Prefer: example=", () => {
  it("answers with the named example, whatever the body", async () => {
    const answer = await createThingWith("example=createdPerson");
    expect(answer.body).toMatchObject({ kind: "Person", name: "Ada Lovelace" });
  });

  it("combines with code=, separated by a comma or a semicolon", async () => {
    for (const prefer of ["code=200, example=createdPerson", "code=200;example=createdPerson"]) {
      expect((await createThingWith(prefer)).body).toMatchObject({ kind: "Person" });
    }
  });

  it("refuses an example the answer does not have, naming the header", async () => {
    const answer = await createThingWith('example="nope"');
    expect(answer.status).toBe(422);
    expect(answer.body as Problem).toMatchObject({
      errors: [{ location: "header", field: "Prefer", rule: "prefer" }],
    });
    expect((answer.body as Problem).detail).toContain("nope");
  });
});

describe("Prefer with an Accept that allows no JSON", () => {
  it("is a 406 about Accept, not a problem with the preferences", async () => {
    const answer = await send(mock.url, {
      ...preferring("example=createdPerson"),
      headers: { ...preferring("example=createdPerson").headers, Accept: "text/html" },
      body: business,
    });
    expect(answer.status).toBe(406);
    expect(answer.body as Problem).toMatchObject({ errors: [{ field: "Accept" }] });
  });
});

describe("Prefer: dynamic=", () => {
  it("dynamic=true generates data that matches the schema instead of the example", async () => {
    const list = (prefer: string) => send(mock.url, preferring(prefer, listThings));
    const example = await list("dynamic=false");
    const generated = await list("dynamic=true");
    expect(generated.status).toBe(200);
    expect(fixture.responseProblems("listThings", generated.body)).toEqual([]);
    expect(generated.body).not.toEqual(example.body);
  });

  it("the same seed= generates the same data", async () => {
    const seeded = () => createThingWith("dynamic=true, seed=42");
    const [first, second] = await Promise.all([seeded(), seeded()]);
    expect(first.body).toEqual(second.body);
  });

  it("refuses a value that is not true or false", async () => {
    const answer = await createThingWith("dynamic=maybe");
    expect(answer.status).toBe(422);
    expect(answer.body as Problem).toMatchObject({
      errors: [{ field: "Prefer", rule: "dynamic" }],
    });
  });

  it("ignores preferences it does not know, as RFC 7240 asks", async () => {
    expect((await createThingWith("return=minimal, respond-async")).status).toBe(200);
  });
});

// The sandbox answers the API's own operations: this part stays on the API's spec.
describe("Prefer in the stateful sandbox", () => {
  const createCustomer = validRequest("createCustomer");
  const customer = { customer_type: "Business", email: "finance@example.com" };
  let sandbox: RunningMock;
  beforeAll(async () => {
    sandbox = await startMock({ spec: specPath, stateful: true });
  });
  afterAll(() => sandbox?.stop());

  const customerCount = async () =>
    ((await send(sandbox.url, validRequest("listCustomers"))).body as { items: unknown[] }).items
      .length;

  it("a request with Prefer gets Prism's answer and leaves the sandbox's data untouched", async () => {
    const before = await customerCount();
    const answer: SentResponse = await send(sandbox.url, {
      ...preferring("code=200", createCustomer),
      body: { ...customer, email: "prefer@example.com" },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ email: "finance@example.com" });
    expect(await customerCount()).toBe(before);
  });

  it("an error status asked for is answered without touching the data", async () => {
    const answer = await send(sandbox.url, preferring("code=503", createCustomer));
    expect(answer.status).toBe(503);
    expect(undeclaredAnswer("createCustomer", answer)).toEqual([]);
  });
});
