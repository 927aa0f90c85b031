// GET /_sandbox/events as a test queries it: each filter (event id, webhook, topic, customer,
// delivered), paging as the API's lists page, and an event to a reserved example host listed once,
// as not sent, never retried.

import { call, createCustomer, startReceiver } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

// biome-ignore lint/suspicious/noExplicitAny: tests read attempts as loose JSON
type Attempt = Record<string, any>;

let sandbox: HttpSandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let arriving: string;
let failing: string;
let reserved: string;
let customers: string[];

async function addWebhook(url: string, topics: string[]): Promise<string> {
  const answer = await call(sandbox.url, "POST", "/_sandbox/webhooks", { body: { url, topics } });
  expect(answer.status).toBe(200);
  return answer.body.id;
}

async function events(query: Record<string, string> = {}) {
  return call(sandbox.url, "GET", `/_sandbox/events?${new URLSearchParams(query)}`);
}

/** Every attempt the query lists, page by page. */
async function allPages(query: Record<string, string>): Promise<Attempt[][]> {
  const pages: Attempt[][] = [];
  let cursor: string | undefined;
  do {
    const answer = await events({ ...query, ...(cursor !== undefined && { cursor }) });
    expect(answer.status).toBe(200);
    pages.push(answer.body.items);
    cursor = answer.body.cursor;
  } while (cursor !== undefined);
  return pages;
}

beforeAll(async () => {
  sandbox = await startSandbox();
  receiver = await startReceiver((request, response) =>
    response.writeHead(request.url === "/failing" ? 500 : 204).end(),
  );
  arriving = await addWebhook(`${receiver.url}/arriving`, ["CustomerCreated", "CustomerStatus"]);
  failing = await addWebhook(`${receiver.url}/failing`, ["CustomerCreated"]);
  reserved = await addWebhook("https://hooks.example.com/payments", ["CustomerCreated"]);
  customers = [];
  for (const email of ["one@lumen.test", "two@lumen.test"]) {
    customers.push((await createCustomer(sandbox.url, { email })).id);
  }
  // Each customer's CustomerCreated reaches the three webhooks: the first attempts run now.
  await call(sandbox.url, "POST", "/_sandbox/clock/advance", { body: { seconds: 0 } });
});

afterAll(async () => {
  await sandbox.stop();
  await receiver.stop();
});

describe("filters", () => {
  it("by webhook", async () => {
    const { body } = await events({ webhook_id: arriving, page_size: "100" });
    expect(body.items).toHaveLength(2);
    expect(body.items.every((attempt: Attempt) => attempt.webhook_id === arriving)).toBe(true);
  });

  it("by topic", async () => {
    const { body } = await events({ topic: "CustomerCreated", page_size: "100" });
    const ours = body.items.filter((attempt: Attempt) =>
      [arriving, failing, reserved].includes(attempt.webhook_id),
    );
    expect(ours).toHaveLength(6);
    expect(body.items.every((attempt: Attempt) => attempt.topic === "CustomerCreated")).toBe(true);
    expect((await events({ topic: "TransactionStatus" })).body.items).toEqual([]);
  });

  it("by customer", async () => {
    const { body } = await events({ customer_id: customers[0] as string, page_size: "100" });
    expect(body.items).toHaveLength(3);
    expect(new Set(body.items.map((attempt: Attempt) => attempt.payload.customer_id))).toEqual(
      new Set([customers[0]]),
    );
  });

  it("by event id: an event has one id, the same in the attempts to every webhook", async () => {
    const [first] = (await events({ webhook_id: arriving })).body.items;
    const { body } = await events({ id: first.id, page_size: "100" });
    expect(body.items.length).toBeGreaterThan(1);
    expect(body.items.every((attempt: Attempt) => attempt.id === first.id)).toBe(true);
    expect(new Set(body.items.map((attempt: Attempt) => attempt.webhook_id)).size).toBe(
      body.items.length,
    );
    const one = (await events({ id: first.id, webhook_id: arriving })).body.items;
    expect(one.map((attempt: Attempt) => attempt.attempt_id)).toEqual([first.attempt_id]);
  });

  it("by delivered, and all filters together", async () => {
    const arrived = (await events({ delivered: "true", page_size: "100" })).body.items;
    expect(arrived.length).toBeGreaterThan(0);
    expect(arrived.every((attempt: Attempt) => attempt.delivered === true)).toBe(true);
    const notArrived = (await events({ delivered: "false", page_size: "100" })).body.items;
    expect(notArrived.every((attempt: Attempt) => attempt.delivered === false)).toBe(true);
    expect(notArrived.map((attempt: Attempt) => attempt.webhook_id)).toEqual(
      expect.arrayContaining([failing, reserved]),
    );
    const both = await events({
      delivered: "false",
      webhook_id: failing,
      customer_id: customers[1] as string,
    });
    expect(both.body.items).toHaveLength(1);
    expect(both.body.items[0]).toMatchObject({ webhook_id: failing, delivered: false, sent: true });
  });
});

describe("paging", () => {
  it("pages 10 at a time by default, newest first, and every page follows from the last", async () => {
    // More attempts than a page: the failing webhook's retries over two days.
    await call(sandbox.url, "POST", "/_sandbox/clock/advance", { body: { seconds: 2 * 86_400 } });
    const everything = (await events({ page_size: "100" })).body.items as Attempt[];
    expect(everything.length).toBeGreaterThan(10);
    const first = await events();
    expect(first.body.items).toEqual(everything.slice(0, 10));
    expect(first.body.prev_cursor).toBeNull();
    const pages = await allPages({ page_size: "3" });
    expect(pages.flat()).toEqual(everything);
    expect(pages.slice(0, -1).every((page) => page.length === 3)).toBe(true);
    const times = everything.map((attempt) => attempt.created_at);
    expect(times).toEqual([...times].sort().reverse());
  });

  it("pages a filtered list with its own cursors", async () => {
    const pages = await allPages({ webhook_id: failing, page_size: "4" });
    const attempts = pages.flat();
    // Seven attempts of each of the two events: the first and six retries.
    expect(attempts).toHaveLength(14);
    expect(attempts.every((attempt) => attempt.webhook_id === failing)).toBe(true);
    expect(new Set(attempts.map((attempt) => attempt.attempt_id)).size).toBe(14);
  });

  it("refuses a cursor the list does not hold", async () => {
    const answer = await events({ cursor: "no-such-cursor" });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ location: "query", field: "cursor" });
  });
});

describe("a reserved example host", () => {
  it("gets each event recorded once, as not sent, never retried", async () => {
    const attempts = (await events({ webhook_id: reserved, page_size: "100" })).body.items;
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({ delivered: false, sent: false, attempt: 1 });
      expect(attempt).not.toHaveProperty("next_attempt_at");
      expect(attempt.failure_reason).toContain("reserved example domain");
    }
    const webhooks = await call(sandbox.url, "GET", "/webhooks");
    const webhook = webhooks.body.items.find((item: Attempt) => item.id === reserved);
    // Nothing failed: nothing was sent.
    expect(webhook).not.toHaveProperty("last_failure");
  });
});
