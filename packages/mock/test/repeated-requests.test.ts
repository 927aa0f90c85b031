// The stateless mock remembers its answer to a request (with its body, if it has one) and
// answers the same request again with it: the same status, headers and body, each answer with its own request id
// and log line. Generated data is never remembered, nor an answer to a request with preferences.
import { specPath } from "@org/payments-spec";
import { API_KEY } from "@org/payments-testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningMock, startMock } from "../src/index.js";
import { type RawAnswer, send } from "./support/http.js";

const auth = { "X-API-Key": API_KEY };
const logs: string[] = [];
let mock: RunningMock;
let dynamic: RunningMock;

beforeAll(async () => {
  [mock, dynamic] = await Promise.all([
    startMock({ spec: specPath, log: (line) => logs.push(line) }),
    startMock({ spec: specPath, dynamic: true }),
  ]);
});
afterAll(async () => {
  await Promise.all([mock?.stop(), dynamic?.stop()]);
});

/** The answer's headers, less the two that differ from one answer to the next. */
function stable({ headers }: RawAnswer) {
  const { date, "x-request-id": _id, ...rest } = headers;
  return rest;
}

it("answers the same request without a body alike each time, with a request id of its own", async () => {
  const ask = () => send(mock.url, { target: "/customers?page_size=2", headers: auth });
  const answers = [await ask(), await ask(), await ask()];
  const [first] = answers as [RawAnswer];
  expect(first.status).toBe(200);
  for (const answer of answers) {
    expect(answer.status).toBe(first.status);
    expect(stable(answer)).toEqual(stable(first));
    expect(answer.text).toBe(first.text);
  }
  const ids = answers.map((answer) => answer.headers["x-request-id"]);
  expect(new Set(ids).size).toBe(3);
  for (const id of ids) {
    expect(logs).toContain(`GET /customers?page_size=2 → 200 request-id=${id}`);
  }
});

it("answers a request that differs in a header or its target as that request", async () => {
  const first = await send(mock.url, { target: "/customers", headers: auth });
  const followed = await send(mock.url, {
    target: "/customers?cursor=9c2e4a6b-1d3f-4b5a-8c7e-0f2a4c6e8b1d",
    headers: auth,
  });
  const keyless = await send(mock.url, { target: "/customers", headers: {} });
  expect(first.status).toBe(200);
  expect(followed.status).toBe(200);
  expect(followed.text).not.toBe(first.text);
  expect(keyless.status).toBe(401);
});

it("answers the same request with a body alike, and one with another body as that request", async () => {
  const create = (body: object) =>
    send(mock.url, {
      method: "POST",
      target: "/customers",
      headers: {
        ...auth,
        "Content-Type": "application/json",
        "Idempotency-Key": "9c2e4a6b-1d3f-4b5a-8c7e-0f2a4c6e8b1d",
      },
      body: JSON.stringify(body),
    });
  const person = { customer_type: "Person", email: "ada@example.com", name: "Ada Lovelace" };
  const [first, second] = [await create(person), await create(person)];
  expect(first.status).toBe(200);
  expect(stable(second)).toEqual(stable(first));
  expect(second.text).toBe(first.text);
  expect(second.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
  const business = await create({
    customer_type: "Business",
    email: "ops@example.com",
    name: "Acme",
  });
  expect(business.status).toBe(200);
  expect(business.text).not.toBe(first.text);
  const invalid = await create({ ...person, email: 42 });
  expect(invalid.status).toBeGreaterThanOrEqual(400);
  expect(invalid.status).toBeLessThan(500);
  expect((await create(person)).text).toBe(first.text);
});

it("generates data afresh for each request, with --dynamic or Prefer: dynamic=true", async () => {
  const generated = (url: string, headers: Record<string, string>) =>
    send(url, { target: "/customers", headers: { ...auth, ...headers } });
  for (const [url, headers] of [
    [dynamic.url, {}],
    [mock.url, { Prefer: "dynamic=true" }],
  ] as const) {
    const [first, second] = [await generated(url, headers), await generated(url, headers)];
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.text).not.toBe(first.text);
  }
});
