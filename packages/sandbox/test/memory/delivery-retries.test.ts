// A failed delivery's retries follow the webhook as it is when each is due: to its url at that
// time, and only while it is enabled (the webhooks guide: "tried again … to the webhook's url at
// that time, while it is enabled"). A redelivery is numbered after every attempt, a retry after
// a redelivery too. Not about a store: memory only.

import { call, newKey, startReceiver } from "@org/payments-testing";
import { afterEach, expect, it } from "vitest";
import { startSandbox } from "../support/sandbox.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A sandbox whose webhook (CustomerCreated) is at a receiver that answers 500, and a customer's event that failed once. */
async function failedOnce() {
  const sandbox = await startSandbox();
  cleanups.push(() => sandbox.stop());
  const failing = await startReceiver((_, response) => response.writeHead(500).end());
  cleanups.push(() => failing.stop());
  const webhook = await call(sandbox.url, "POST", "/_sandbox/webhooks", {
    body: { url: `${failing.url}/hook`, topics: ["CustomerCreated"] },
  });
  expect(webhook.status).toBe(200);
  const customer = await call(sandbox.url, "POST", "/customers", {
    body: { customer_type: "Person", email: "retried@example.com" },
    headers: newKey(),
  });
  expect(customer.status).toBe(200);
  await advance(sandbox.url, 0);
  const attempts = await attemptsOf(sandbox.url);
  expect(attempts).toMatchObject([{ attempt: 1, delivered: false, status_code: 500 }]);
  return { url: sandbox.url, failing, webhook: webhook.body, event: attempts[0].id as string };
}

async function advance(url: string, seconds: number) {
  const answer = await call(url, "POST", "/_sandbox/clock/advance", { body: { seconds } });
  expect(answer.status).toBe(200);
}

async function attemptsOf(url: string) {
  return (await call(url, "GET", "/_sandbox/events?page_size=100")).body.items;
}

it("sends a retry to the webhook's url as it is when the retry is due", async () => {
  const { url, failing, webhook } = await failedOnce();
  const fixed = await startReceiver();
  cleanups.push(() => fixed.stop());
  const moved = await call(url, "PATCH", `/webhooks/${webhook.id}`, {
    body: { url: `${fixed.url}/hook` },
  });
  expect(moved.status).toBe(200);
  await advance(url, 60);
  expect(failing.deliveries).toHaveLength(1);
  expect(fixed.deliveries).toHaveLength(1);
  expect((await attemptsOf(url))[0]).toMatchObject({
    attempt: 2,
    delivered: true,
    url: `${fixed.url}/hook`,
  });
});

it("sends no retry to a webhook disabled since the attempt failed", async () => {
  const { url, failing, webhook } = await failedOnce();
  const disabled = await call(url, "PATCH", `/webhooks/${webhook.id}`, {
    body: { enabled: false },
  });
  expect(disabled.status).toBe(200);
  await advance(url, 24 * 60 * 60);
  expect(failing.deliveries).toHaveLength(1);
  expect((await attemptsOf(url)).map((attempt: { attempt: number }) => attempt.attempt)).toEqual([
    1,
  ]);
});

it("numbers a retry due after a redelivery after it, and redeliveries at once one after another", async () => {
  const { url, failing, event } = await failedOnce();
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  // The receiver recovers, slowly: both redeliveries are on their way at once.
  failing.answerWith(async (_, response) => {
    await held;
    response.writeHead(204).end();
  });
  const redeliveries = [1, 2].map(() => call(url, "POST", `/_sandbox/events/${event}/redeliver`));
  await failing.waitFor(3);
  release();
  const numbers = (await Promise.all(redeliveries)).map((answer) => answer.body.attempt);
  expect(numbers.sort()).toEqual([2, 3]);
  // The retry the first attempt's failure scheduled comes after them.
  await advance(url, 60);
  expect(failing.deliveries).toHaveLength(4);
  expect((await attemptsOf(url)).map((attempt: { attempt: number }) => attempt.attempt)).toEqual([
    4, 3, 2, 1,
  ]);
});

it("sends a delivery a fault held back only if its webhook is still enabled when it is due", async () => {
  const sandbox = await startSandbox();
  cleanups.push(() => sandbox.stop());
  const receiver = await startReceiver();
  cleanups.push(() => receiver.stop());
  const webhook = await call(sandbox.url, "POST", "/_sandbox/webhooks", {
    body: { url: `${receiver.url}/hook`, topics: ["CustomerCreated"] },
  });
  const armed = await call(sandbox.url, "POST", "/_sandbox/faults", {
    body: { topic: "CustomerCreated", delay_seconds: 600 },
  });
  expect(armed.status).toBe(201);
  const customer = await call(sandbox.url, "POST", "/customers", {
    body: { customer_type: "Person", email: "held-back@example.com" },
    headers: newKey(),
  });
  expect(customer.status).toBe(200);
  const disabled = await call(sandbox.url, "PATCH", `/webhooks/${webhook.body.id}`, {
    body: { enabled: false },
  });
  expect(disabled.status).toBe(200);
  await advance(sandbox.url, 600);
  expect(receiver.deliveries).toHaveLength(0);
});

it("numbers each webhook's attempts of an event on their own, 1, 2, …", async () => {
  const sandbox = await startSandbox();
  cleanups.push(() => sandbox.stop());
  const failing = await startReceiver((_, response) => response.writeHead(500).end());
  cleanups.push(() => failing.stop());
  for (const path of ["/one", "/two"]) {
    const added = await call(sandbox.url, "POST", "/_sandbox/webhooks", {
      body: { url: `${failing.url}${path}`, topics: ["CustomerCreated"] },
    });
    expect(added.status).toBe(200);
  }
  const customer = await call(sandbox.url, "POST", "/customers", {
    body: { customer_type: "Person", email: "two-webhooks@example.com" },
    headers: newKey(),
  });
  expect(customer.status).toBe(200);
  await advance(sandbox.url, 0);
  await advance(sandbox.url, 6 * 60);
  const attempts: { url: string; attempt: number }[] = await attemptsOf(sandbox.url);
  for (const path of ["/one", "/two"]) {
    const numbers = attempts
      .filter((attempt) => attempt.url.endsWith(path))
      .map((attempt) => attempt.attempt);
    expect(numbers).toEqual([3, 2, 1]);
  }
});
