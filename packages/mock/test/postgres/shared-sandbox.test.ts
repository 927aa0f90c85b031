// Two built CLIs on one Postgres database behave as one sandbox: they list each other's
// creates, share idempotency keys, reset and the event log, and each event goes out once,
// also when one of them is killed in the middle of a burst.

import {
  API_KEY,
  call,
  createCustomer,
  createDatabase,
  newKey,
  startReceiver,
} from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, inject, it, type TestContext } from "vitest";
import { fileScope, runCli } from "../support/run-cli.js";

/** Both processes serve the tests' key's partner, with the seed's data (its webhook among them). */
const SHARED = ["--port", "0", "--quiet", "--stateful", "--example-key", API_KEY];

const WEBHOOK = "/webhooks/f3a7c1e5-9b4d-4f2a-8c6e-1a3b5d7f9e02";
const customer = { customer_type: "Person", email: "shared@example.com", name: "Shared" };

async function twoMocks(context: Pick<TestContext, "onTestFinished">) {
  const state = await createDatabase(inject("postgresUrl"));
  const start = () => runCli(context, [...SHARED, "--state", state]);
  const a = start();
  // The first creates the schema; the second finds it (both may race: an advisory lock orders them).
  const b = start();
  return { a, b, urls: [await a.url, await b.url] as const };
}

async function allCustomers(url: string, headers: Record<string, string>) {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const query = cursor === undefined ? "" : `&cursor=${cursor}`;
    const page = await call(url, "GET", `/customers?page_size=100${query}`, { headers });
    expect(page.status).toBe(200);
    ids.push(...page.body.items.map((item: { id: string }) => item.id));
    cursor = page.body.cursor;
  } while (cursor !== undefined);
  return ids;
}

describe("a sandbox shared through Postgres", () => {
  // The listing and the idempotency tests share a pair: each works in a sub-partner of its own
  // (X-SUB-PARTNER-ID) and changes nothing the other reads.
  const scope = fileScope();
  afterAll(scope.stop);
  let urls: readonly [string, string];
  beforeAll(async () => {
    ({ urls } = await twoMocks(scope));
  });

  it("lists what the other process creates, with cursors across processes", async () => {
    const scope = { "X-SUB-PARTNER-ID": crypto.randomUUID() };
    const created: string[] = [];
    for (let index = 0; index < 12; index++) {
      const url = urls[index % 2] as string;
      created.push((await createCustomer(url, { name: `Shared ${index}` }, scope)).id);
    }
    const first = await call(urls[0], "GET", "/customers?page_size=5", { headers: scope });
    const second = await call(
      urls[1],
      "GET",
      `/customers?page_size=5&cursor=${first.body.cursor}`,
      {
        headers: scope,
      },
    );
    expect([...first.body.items, ...second.body.items].map((c: { id: string }) => c.id)).toEqual(
      created.slice(0, 10),
    );
    expect(await allCustomers(urls[1], scope)).toEqual(created);
  }, 120_000);

  it("creates one resource for one key sent to both at once; the others replay it", async () => {
    const headers = { "X-SUB-PARTNER-ID": crypto.randomUUID(), ...newKey() };
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        call(urls[index % 2] as string, "POST", "/customers", { body: customer, headers }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(await allCustomers(urls[0], headers)).toEqual([answers[0]?.body.id]);
  }, 120_000);

  it("shares reset and the event log, and delivers each event once", async (context) => {
    const { urls } = await twoMocks(context);
    const receiver = await startReceiver();
    context.onTestFinished(() => receiver.stop());
    const subscribe = await call(urls[0], "PATCH", WEBHOOK, {
      body: { url: `${receiver.url}/hook`, enabled: true, topics: ["CustomerStatus"] },
    });
    expect(subscribe.status).toBe(200);
    const target = await createCustomer(urls[1]);
    const statuses = ["Active", "Suspended"];
    for (let index = 0; index < 10; index++) {
      const changed = await call(
        urls[index % 2] as string,
        "POST",
        `/_sandbox/customers/${target.id}/status`,
        // Forced: one direct change, so one event, each time.
        { body: { status: statuses[index % 2], force: true } },
      );
      expect(changed.status).toBe(200);
    }
    // Every attempt either process makes is in the shared log once answered: when it holds ten
    // delivered ones, the receiver has had what was sent, and a second delivery of an event would
    // be an eleventh attempt there, not a guess after a wait.
    const delivered = async () =>
      (await call(urls[1], "GET", "/_sandbox/events")).body.items.filter(
        (attempt: { delivered: boolean }) => attempt.delivered,
      );
    await expect.poll(async () => (await delivered()).length).toBeGreaterThanOrEqual(10);
    const logged = await delivered();
    expect(logged).toHaveLength(10);
    expect(new Set(logged.map((attempt: { id: string }) => attempt.id)).size).toBe(10);
    const ids = receiver.deliveries.map((delivery) => delivery.body.id);
    expect(ids).toHaveLength(10);
    expect(new Set(ids)).toEqual(new Set(logged.map((attempt: { id: string }) => attempt.id)));

    expect((await call(urls[0], "POST", "/_sandbox/reset")).status).toBe(200);
    expect((await call(urls[1], "GET", "/_sandbox/events")).body.items).toEqual([]);
    const listed = await call(urls[1], "GET", "/customers");
    expect(listed.body.items.map((c: { id: string }) => c.id)).toEqual([
      "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
    ]);
  }, 120_000);

  it("sends an event again, same id, when the process delivering it dies", async (context) => {
    const state = await createDatabase(inject("postgresUrl"));
    const start = () => runCli(context, [...SHARED, "--state", state]);
    const receiver = await startReceiver();
    context.onTestFinished(() => receiver.stop());
    // The first delivery never gets an answer: its process is killed while it waits.
    receiver.answerWith(() => {});
    const first = start();
    const url = await first.url;
    await call(url, "PATCH", WEBHOOK, {
      body: { url: `${receiver.url}/hook`, enabled: true, topics: ["CustomerStatus"] },
    });
    const target = await createCustomer(url);
    await call(url, "POST", `/_sandbox/customers/${target.id}/status`, {
      body: { status: "Active", force: true },
    });
    const [held] = await receiver.waitFor(1);
    first.child.kill("SIGKILL");
    await first.exited;

    receiver.answerWith((_, response) => response.writeHead(204).end());
    const second = start();
    const again = await second.url;
    const [, resent] = await receiver.waitFor(2);
    expect(resent?.body.id).toBe(held?.body.id);
    let logged: Array<{ id: string; delivered: boolean }> = [];
    for (let tries = 0; tries < 100 && logged.length === 0; tries++) {
      logged = (await call(again, "GET", "/_sandbox/events")).body.items;
      if (logged.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(logged).toMatchObject([{ id: held?.body.id, delivered: true }]);
  }, 120_000);

  it("keeps every acknowledged create when one process is killed mid-burst", async (context) => {
    const { a, urls } = await twoMocks(context);
    const scope = { "X-SUB-PARTNER-ID": crypto.randomUUID() };
    const acknowledged: string[] = [];
    const burst = async (url: string) => {
      for (let index = 0; index < 60; index++) {
        try {
          acknowledged.push((await createCustomer(url, { name: `Burst ${index}` }, scope)).id);
        } catch {
          return; // the killed process stops answering
        }
      }
    };
    const bursts = [burst(urls[0]), burst(urls[1])];
    await expect.poll(() => acknowledged.length, { interval: 10 }).toBeGreaterThanOrEqual(20);
    a.child.kill("SIGKILL");
    await Promise.all(bursts);
    const listed = await allCustomers(urls[1], scope);
    expect(listed).toEqual(expect.arrayContaining(acknowledged));
    // The survivor went on with its own burst: its 60 creates are all there.
    expect(listed.length).toBeGreaterThanOrEqual(60);
    expect(new Set(listed).size).toBe(listed.length);
  }, 120_000);
});
