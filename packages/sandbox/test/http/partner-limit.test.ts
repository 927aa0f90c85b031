// A sandbox bounds its partners: past `maxPartners`, a new key is refused with a problem that
// names the limit and how to raise it, and keys it knows go on; a partner idle 15 minutes makes
// room for a new one, the one idle longest first. On each store.

import { call } from "@org/payments-testing";
import { afterEach, expect, it, vi } from "vitest";
import { newApiKey } from "../../src/index.js";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(maxPartners: number): Promise<HttpSandbox> {
  const started = await startSandbox({ maxPartners });
  cleanups.push(() => started.stop());
  return started;
}

const as = (url: string, key: string, method: string, path: string, body?: unknown) =>
  call(url, method, path, {
    body,
    headers: {
      "X-API-Key": key,
      ...(method === "POST" && { "IDEMPOTENCY-KEY": crypto.randomUUID() }),
    },
  });

it("refuses a new key past the limit with a 503 naming it and how to raise it; known keys go on", async () => {
  const { url } = await sandbox(20);
  const keys = Array.from({ length: 25 }, () => newApiKey());
  const first = await Promise.all(keys.map((key) => as(url, key, "GET", "/_sandbox/clock")));
  expect(first.filter((answer) => answer.status === 200)).toHaveLength(20);
  const refused = first.filter((answer) => answer.status !== 200);
  expect(refused).toHaveLength(5);
  for (const answer of refused) {
    expect(answer.status).toBe(503);
    expect(answer.contentType).toBe("application/json");
    expect(answer.body).toMatchObject({
      type: "urn:org:payments-mock:problem:partner-limit",
      status: 503,
      errors: [{ location: "security", field: "X-API-Key", rule: "maxPartners" }],
    });
    expect(answer.body.detail).toContain("at most 20 partners");
    expect(answer.body.detail).toContain("--max-partners");
    for (const key of keys) expect(JSON.stringify(answer.body)).not.toContain(key);
  }
  // Every key it took answers, on the API's routes and its own; the refused ones stay refused.
  const admitted = keys.filter((_, index) => first[index]?.status === 200);
  for (const key of admitted) {
    expect((await as(url, key, "GET", "/customers")).status).toBe(200);
    const made = await as(url, key, "POST", "/customers", {
      customer_type: "Person",
      email: "a@example.com",
    });
    expect(made.status).toBe(200);
  }
  const again = keys.filter((key) => !admitted.includes(key));
  for (const key of again) expect((await as(url, key, "GET", "/customers")).status).toBe(503);
  // The example key's partner holds the seed and is not counted.
  expect((await call(url, "GET", "/customers")).status).toBe(200);
});

it("makes room with the partner idle longest once one has been idle 15 minutes", async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  const start = Date.now();
  const at = (minutes: number) => vi.setSystemTime(start + minutes * 60_000);
  const { url } = await sandbox(2);
  const [a, b, c] = [newApiKey(), newApiKey(), newApiKey()];
  const made = await as(url, a, "POST", "/customers", {
    customer_type: "Person",
    email: "a@example.com",
  });
  expect(made.status).toBe(200);
  // Read once, so that a kept answer of a's list would show through after it is dropped.
  expect((await as(url, a, "GET", "/customers")).body.items).toHaveLength(1);
  at(5);
  expect((await as(url, b, "GET", "/customers")).status).toBe(200);
  at(14);
  expect((await as(url, c, "GET", "/customers")).status).toBe(503);
  at(16);
  // a has been idle 16 minutes, b 11: a makes room for c.
  expect((await as(url, c, "GET", "/customers")).status).toBe(200);
  // a is a new key now, and b, idle 11 minutes, may not make room for it yet.
  expect((await as(url, a, "GET", "/customers")).status).toBe(503);
  at(21);
  const back = await as(url, a, "GET", "/customers");
  expect(back.status).toBe(200);
  expect(back.body.items.map((customer: { id: string }) => customer.id)).not.toContain(
    made.body.id,
  );
  expect((await as(url, c, "GET", "/customers")).status).toBe(200);
  expect((await as(url, b, "GET", "/customers")).status).toBe(503);
});
