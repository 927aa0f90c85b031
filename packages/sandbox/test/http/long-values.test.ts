// A problem quotes at most MAX_QUOTED characters of a client's value (an id, a path, a cursor),
// then "…": a 404 that repeated a 10,000-character id in its message and its detail was a
// ~20 kB answer to a small request.
import { MAX_QUOTED } from "@org/payments-engine";
import { call } from "@org/payments-testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

let sandbox: HttpSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const LONG = "x".repeat(10_000);
const SHOWN = `${"x".repeat(MAX_QUOTED)}…`;

it.for<{ name: string; method: string; path: string; status: number; message: string }>([
  {
    name: "a path no operation of the API has",
    method: "GET",
    path: `/customers/${LONG}`,
    status: 404,
    message: `no operation of the API has the path /customers/${"x".repeat(MAX_QUOTED - 11)}…`,
  },
  {
    name: "an autoramp's external id",
    method: "GET",
    path: `/autoramps/${LONG}/external`,
    status: 404,
    message: `no autoramp ${SHOWN}`,
  },
  {
    name: "a fault rule's id",
    method: "DELETE",
    path: `/_sandbox/faults/${LONG}`,
    status: 404,
    message: `no armed fault rule ${SHOWN}`,
  },
  {
    name: "a webhook event's id",
    method: "POST",
    path: `/_sandbox/events/${LONG}/redeliver`,
    status: 404,
    message: `no webhook event ${SHOWN} of a webhook that exists`,
  },
  {
    name: "a path no route has",
    method: "GET",
    path: `/${LONG}`,
    status: 404,
    message: `/${"x".repeat(MAX_QUOTED - 1)}…`,
  },
])("quotes $name in $status up to its limit", async ({ method, path, status, message }) => {
  const answer = await call(sandbox.url, method, path);
  expect(answer.status).toBe(status);
  expect(
    answer.body.errors.map((error: { message: string }) => error.message).join("\n"),
  ).toContain(message);
  expect(answer.body.detail).toContain(message);
  expect(JSON.stringify(answer.body)).not.toContain("x".repeat(MAX_QUOTED + 1));
  expect(JSON.stringify(answer.body).length).toBeLessThan(2_000);
});
