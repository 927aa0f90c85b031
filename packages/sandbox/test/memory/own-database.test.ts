// Each in-memory sandbox has a database of its own, even in one process (SQLite's memdb shares a
// database among the connections that open one name, and every in-memory database starts from a
// copy of the process's migrated schema).

import { call, newKey } from "@org/payments-testing";
import { afterEach, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

const started: HttpSandbox[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((sandbox) => sandbox.stop()));
});

it("keeps what one sandbox creates out of another in the same process", async () => {
  const first = await startSandbox();
  started.push(first);
  const second = await startSandbox();
  started.push(second);
  expect(first.state).toBeUndefined();
  const before = await call(second.url, "GET", "/customers?page_size=100");
  const created = await call(first.url, "POST", "/customers", {
    body: { customer_type: "Person", email: "only-in-first@example.com" },
    headers: newKey(),
  });
  expect(created.status).toBe(200);
  const inFirst = await call(first.url, "GET", "/customers?page_size=100");
  const inSecond = await call(second.url, "GET", "/customers?page_size=100");
  expect(inFirst.body.items.map((c: { id: string }) => c.id)).toContain(created.body.id);
  expect(inSecond.body).toEqual(before.body);
  // One opened after the create starts from the schema alone, without it.
  const third = await startSandbox();
  started.push(third);
  const inThird = await call(third.url, "GET", "/customers?page_size=100");
  expect(inThird.body).toEqual(before.body);
});
