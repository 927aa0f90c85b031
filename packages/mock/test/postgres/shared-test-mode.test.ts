// Test mode on a sandbox that two built CLIs share through one Postgres database: one clock for
// both, and each scheduled step and each delivery attempt made once, whichever process advances
// the clock or notices that work has come due. One pair of processes for the file; each test is a
// partner of its own (the example key's, with the seed, or keys of their own).

import {
  API_KEY,
  call,
  createDatabase,
  newKey,
  type Reply,
  startReceiver,
} from "@org/payments-testing";
import { WEBHOOK_TOPICS } from "@org/payments-types";
import { afterAll, beforeAll, describe, expect, inject, it, type TestContext } from "vitest";
import { fileScope, runCli } from "../support/run-cli.js";

const ALL_TOPICS = WEBHOOK_TOPICS;

const scope = fileScope();
afterAll(scope.stop);
let urls: readonly [string, string];
beforeAll(async () => {
  const state = await createDatabase(inject("postgresUrl"));
  const start = () => runCli(scope, ["--port", "0", "--quiet", "--stateful", "--state", state]);
  const a = start();
  const b = start();
  urls = [await a.url, await b.url];
});

/** The partner of `key`'s webhook for every topic, to a receiver of the test's. */
async function receiverFor(context: TestContext, key: string, reply?: Reply) {
  const receiver = await startReceiver(reply);
  context.onTestFinished(() => receiver.stop());
  const added = await call(urls[0], "POST", "/_sandbox/webhooks", {
    body: { url: `${receiver.url}/hook`, topics: ALL_TOPICS },
    headers: { "X-API-Key": key },
  });
  expect(added.status).toBe(200);
  return { receiver, webhook: added.body };
}

/** Calls as the partner of `key`. */
const partnerOf = (key: string) => ({
  async post(url: string, path: string, body: unknown) {
    const answer = await call(url, "POST", path, {
      body,
      headers: { "X-API-Key": key, ...newKey() },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  },
  async advance(url: string, seconds: number) {
    const answer = await call(url, "POST", "/_sandbox/clock/advance", {
      body: { seconds },
      headers: { "X-API-Key": key },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  },
  attempts: (url: string, count: number) => attempts(url, key, count),
});

/** The event log of delivery attempts of the partner of `key`, once it holds `count` of them. */
async function attempts(url: string, key: string, count: number) {
  let items: Array<{
    id: string;
    webhook_id: string;
    attempt: number;
    delivered: boolean;
    topic: string;
  }> = [];
  for (let tries = 0; tries < 200 && items.length < count; tries++) {
    items = (
      await call(url, "GET", "/_sandbox/events?page_size=100", { headers: { "X-API-Key": key } })
    ).body.items;
    if (items.length < count) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(items.length, JSON.stringify(items.map((item) => item.topic))).toBeGreaterThanOrEqual(
    count,
  );
  return items;
}

describe("test mode on a sandbox two processes share", () => {
  it("moves one clock for both, and runs each step and delivery once", async (context) => {
    const { receiver, webhook } = await receiverFor(context, API_KEY);
    const { post, advance } = partnerOf(API_KEY);
    const [a, b] = urls;
    const customer = await post(a, "/customers", {
      customer_type: "Business",
      email: "shared@lumen.example",
    });
    const unsigned = await call(b, "GET", `/customers/${customer.id}/unsigned-documents`);
    for (const [index, document] of unsigned.body.items.entries()) {
      await post(urls[index % 2] as string, `/customers/${customer.id}/signings`, {
        document_id: document.id,
        signed: true,
      });
    }
    await post(b, `/customers/${customer.id}/identifications`, { type: "Direct" });
    // Both advance at once: the clock ends at the later target, each step runs once.
    const [movedA, movedB] = await Promise.all([advance(a, 600), advance(b, 1200)]);
    const clockA = (await call(a, "GET", "/_sandbox/clock")).body.now;
    expect(Date.parse(clockA)).toBeGreaterThanOrEqual(
      Math.max(Date.parse(movedA.now), Date.parse(movedB.now)),
    );
    const active = await call(b, "GET", `/customers?search_term=${customer.id}`);
    expect(active.body.items[0].status).toBe("Active");

    const autoramp = await post(b, "/autoramps", {
      customer_id: customer.id,
      destination_currency: { blockchain: "Polygon", token: "USDC" },
      recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
      source_currencies: [{ code: "EUR", type: "Fiat" }],
    });
    const deposited = await call(a, "POST", `/_sandbox/autoramps/${autoramp.id}/deposits`, {
      body: { amount: "500.00" },
    });
    expect(deposited.status).toBe(200);
    await post(a, `/_sandbox/customers/${customer.id}/fiat-addresses`, {
      iban: "DE89370400440532013000",
    });
    await post(b, "/addresses/crypto/hosted", {
      blockchain: "Polygon",
      customer_id: customer.id,
      vasp_did: "did:web:vasp.example",
      wallet_address: "0x4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c",
    });
    expect(await post(a, `/webhooks/${webhook.id}/ping`, { customer_id: customer.id })).toBe(true);
    await Promise.all([advance(a, 3600), advance(b, 7200), advance(a, 86_400)]);

    const transaction = await call(b, "GET", `/autoramp-transactions/ids?ids=${deposited.body.id}`);
    expect(transaction.body.items[0]).toMatchObject({ status: "Completed", state: "Completed" });
    const events = receiver.deliveries.map((delivery) => delivery.body);
    expect(new Set(events.map((event) => event.topic))).toEqual(new Set(ALL_TOPICS));
    // Every event arrived once: no step and no delivery was made by both processes.
    const ids = events.map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
    // The seed's webhook (at a reserved example domain) has its own failed attempts.
    const logged = (await attempts(a, API_KEY, ids.length)).filter(
      (attempt) => attempt.webhook_id === webhook.id,
    );
    expect(logged).toHaveLength(ids.length);
    expect(logged.every((attempt) => attempt.attempt === 1 && attempt.delivered)).toBe(true);
    // Both processes deliver, so two events can arrive (and their attempts be logged) in either
    // order; the event log, newest first, holds the order they were made in.
    const log = await call(b, "GET", "/_sandbox/events/log?topic=TransactionStatus&page_size=100", {
      headers: { "X-API-Key": API_KEY },
    });
    const made: string[] = log.body.items.map((event: { id: string }) => event.id).reverse();
    const steps = (topic: string, id: string) =>
      events
        .filter((event) => event.topic === topic && event.data.id === id)
        .sort((x, y) => made.indexOf(x.id) - made.indexOf(y.id))
        .map((event) => event.data.status);
    expect(steps("TransactionStatus", deposited.body.id)).toEqual([
      "FundsReviewInProgress",
      "ExchangeInProgress",
      "PayoutInProgress",
      "Completed",
    ]);
  }, 180_000);

  it("retries a failed delivery once per attempt, whichever process advances the clock", async (context) => {
    let calls = 0;
    const key = `shared-retry-${crypto.randomUUID()}`;
    const { receiver } = await receiverFor(context, key, (_, response) => {
      calls++;
      response.writeHead(calls <= 2 ? 503 : 204).end();
    });
    const { post, advance, attempts } = partnerOf(key);
    const [a, b] = urls;
    await post(a, "/customers", { customer_type: "Person", email: "retry@example.com" });
    const [first] = await receiver.waitFor(1);
    await attempts(b, 1);
    await Promise.all([advance(a, 60), advance(b, 60)]);
    await Promise.all([advance(b, 300), advance(a, 300)]);
    await receiver.waitFor(3);
    const logged = await attempts(a, 3);
    expect(logged.map((attempt) => [attempt.id, attempt.attempt, attempt.delivered])).toEqual([
      [first?.body.id, 3, true],
      [first?.body.id, 2, false],
      [first?.body.id, 1, false],
    ]);
    expect(receiver.deliveries.map((delivery) => delivery.body.id)).toEqual([
      first?.body.id,
      first?.body.id,
      first?.body.id,
    ]);
  }, 180_000);

  it("keeps 20 keys spread over both processes apart, each onboarding and advancing a day at once", async (context) => {
    const receiver = await startReceiver();
    context.onTestFinished(() => receiver.stop());
    const keys = Array.from({ length: 20 }, () => `shared-${crypto.randomUUID()}`);
    const as = (key: string, method: string, path: string, body?: unknown) =>
      call(urls[keys.indexOf(key) % 2] as string, method, path, {
        body,
        headers: { "X-API-Key": key, ...(method === "POST" && newKey()) },
      });
    const ends = await Promise.all(
      keys.map(async (key, index) => {
        const hook = await as(key, "POST", "/_sandbox/webhooks", {
          url: `${receiver.url}/${index}`,
          topics: ["CustomerStatus"],
        });
        expect(hook.status).toBe(200);
        const made = await as(key, "POST", "/customers", {
          customer_type: "Person",
          email: `key${index}@example.com`,
        });
        const unsigned = await as(key, "GET", `/customers/${made.body.id}/unsigned-documents`);
        for (const document of unsigned.body.items) {
          await as(key, "POST", `/customers/${made.body.id}/signings`, {
            document_id: document.id,
            signed: true,
          });
        }
        await as(key, "POST", `/customers/${made.body.id}/identifications`, { type: "Direct" });
        // The advance goes to the other process than the requests of the key.
        const moved = await call(
          urls[(index + 1) % 2] as string,
          "POST",
          "/_sandbox/clock/advance",
          {
            body: { seconds: 86_400 },
            headers: { "X-API-Key": key },
          },
        );
        expect(moved.status).toBe(200);
        const listed = await as(key, "GET", "/customers");
        return { made: made.body.id, listed: listed.body.items, index };
      }),
    );
    for (const { made, listed } of ends) {
      expect(listed.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
        [made, "Active"],
      ]);
    }
    // Each key's events went to its own webhook only, each once.
    const byPath = new Map<string, string[]>();
    for (const delivery of receiver.deliveries) {
      byPath.set(delivery.path, [...(byPath.get(delivery.path) ?? []), delivery.body.customer_id]);
    }
    for (const { made, index } of ends) {
      const customers = byPath.get(`/${index}`) ?? [];
      expect(new Set(customers)).toEqual(new Set([made]));
    }
    const ids = receiver.deliveries.map((delivery) => delivery.body.id);
    expect(new Set(ids).size).toBe(ids.length);
  }, 180_000);
});
