// The client against the sandbox's own faults, the failures its unit tests fake by hand: a lost
// answer after the commit, a 503 with Retry-After, a 429 of a rate limit, an answer later than the
// timeout. Each test is a recipe a partner can copy: a key of its own (sandboxPartner), a rule
// armed through the test mode, the client's default retries, and the request log to prove it.
import { createPaymentsClient, type PaymentsClient } from "@org/payments-client";
import {
  type RequestFilter,
  type RunningSandbox,
  type SandboxPartner,
  sandboxPartner,
  startMock,
} from "@org/payments-mock";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";

let sandbox: RunningSandbox;
let partner: SandboxPartner;
let payments: PaymentsClient;

beforeAll(async () => {
  sandbox = await startMock({ stateful: true, port: 0 });
});

afterAll(async () => {
  await sandbox?.stop();
});

beforeEach(() => {
  // A partner of each test's own: its rules, limit and log are no other test's.
  partner = sandboxPartner(sandbox.url);
  payments = createPaymentsClient({ baseUrl: partner.url, apiKey: partner.apiKey });
});

it("a lost answer after the commit: the retry with the same key replays it, and one customer exists", async () => {
  await partner.armFault({ operation_id: "createCustomer", drop: "after_commit" });
  const email = `lost-answer-${crypto.randomUUID()}@lumen.test`;
  const customer = await payments.customers.create({ customer_type: "Person", email });
  const { items } = await payments.customers.list({ search_term: email });
  expect(items.map((found) => found.id)).toEqual([customer.id]);
  // The first attempt's answer was lost; the retry, with its key, got the stored one again.
  const [retry, lost] = await partner.requests({ operation_id: "createCustomer" });
  expect(lost).toMatchObject({ status: null, fault: "drop_after_commit" });
  expect(retry).toMatchObject({ status: 200, replayed: true });
  expect(retry?.idempotency_key).toBe(lost?.idempotency_key);
});

it("a 503 with Retry-After: the client waits as long before it tries again", async () => {
  await partner.armFault({ operation_id: "listCustomers", status: 503, retry_after: 1 });
  const started = performance.now();
  const { items } = await payments.customers.list();
  expect(Array.isArray(items)).toBe(true);
  expect(performance.now() - started).toBeGreaterThanOrEqual(1000);
  const [success, unavailable] = await partner.requests({ operation_id: "listCustomers" });
  expect(unavailable).toMatchObject({ status: 503, fault: "status" });
  expect(success).toMatchObject({ status: 200 });
  expect(Date.parse(success?.at ?? "") - Date.parse(unavailable?.at ?? "")).toBeGreaterThanOrEqual(
    1000,
  );
});

it("a 429 of the rate limit: the client retries after it, and gets the answer", async () => {
  await partner.setRateLimit({ requests_per_second: 1, burst: 1 });
  await payments.feeProfiles.list();
  // The bucket is empty now: this one is refused once, then let through.
  await payments.feeProfiles.list();
  const statuses = (await partner.requests({ operation_id: "listFeeProfiles" })).map(
    (entry) => entry.status,
  );
  expect(statuses).toContain(429);
  expect(statuses[0]).toBe(200);
  await partner.setRateLimit({ requests_per_second: null });
});

it("an answer later than timeoutMs: the attempt times out, the retry with the same key gets the answer, and one customer exists", async () => {
  await partner.armFault({ operation_id: "createCustomer", delay_ms: 2_000 });
  const email = `late-answer-${crypto.randomUUID()}@lumen.test`;
  const customer = await payments.customers.create(
    { customer_type: "Person", email },
    { timeoutMs: 500 },
  );
  const { items } = await payments.customers.list({ search_term: email });
  expect(items.map((found) => found.id)).toEqual([customer.id]);
  // The late attempt is logged once its answer went out, after the retry's.
  const entries = await logged(2, "createCustomer");
  const [late, retry] = entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  expect(late).toMatchObject({ fault: "delay", status: 200, replayed: false });
  expect(retry).toMatchObject({ status: 200, replayed: true });
  expect(retry?.idempotency_key).toBe(late?.idempotency_key);
});

/** The request log's entries of the operation, once it holds `count` of them. */
async function logged(count: number, operationId: RequestFilter["operation_id"]) {
  for (let tries = 0; ; tries++) {
    const entries = await partner.requests({ operation_id: operationId });
    if (entries.length >= count || tries === 100) return entries;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
