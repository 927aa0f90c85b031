// GET /_sandbox/events/stream: the partner's events as Server-Sent Events, each with its cursor
// as `id:` and its topic as `event:`, its data the body a webhook delivery posts; resumed after a
// cursor by Last-Event-ID or ?after= with nothing skipped and nothing twice; filtered by topic;
// kept alive by heartbeats; events the log no longer holds told in a comment; another key's
// events never in it. And the receipts a forwarder
// reports count in the readiness report as a webhook's answers do.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { call, newKey, openEventStream } from "@org/payments-testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";
import { testModeSchemaProblems } from "../support/test-mode-validator.js";

let sandbox: HttpSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ eventStream: { heartbeatMs: 50 } });
});
afterAll(() => sandbox.stop());

const keyed = (key: string) => ({ "X-API-Key": key });

async function createCustomer(key: string): Promise<string> {
  const answer = await call(sandbox.url, "POST", "/customers", {
    body: { customer_type: "Person", email: "someone@example.com" },
    headers: { ...newKey(), ...keyed(key) },
  });
  expect(answer.status).toBe(200);
  return answer.body.id;
}

async function activate(key: string, customer: string): Promise<void> {
  const answer = await call(sandbox.url, "POST", `/_sandbox/customers/${customer}/status`, {
    body: { status: "Active" },
    headers: keyed(key),
  });
  expect(answer.status).toBe(200);
}

it("sends each event with its cursor and topic, its data the body a webhook receives", async () => {
  const key = "stream-body";
  const bodies: string[] = [];
  const receiver = createServer(async (request, response) => {
    let text = "";
    for await (const chunk of request) text += chunk;
    bodies.push(text);
    response.writeHead(204).end();
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  try {
    const port = (receiver.address() as AddressInfo).port;
    const webhook = await call(sandbox.url, "POST", "/_sandbox/webhooks", {
      body: { url: `http://127.0.0.1:${port}/events`, topics: ["CustomerCreated"] },
      headers: keyed(key),
    });
    expect(webhook.status).toBe(200);
    const stream = await openEventStream(sandbox.url, { apiKey: key });
    expect(stream.headers.get("content-type")).toMatch(/^text\/event-stream/);
    await createCustomer(key);
    const [event] = await stream.waitForEvents(1);
    expect(event?.event).toBe("CustomerCreated");
    expect(event?.id).toMatch(/^[0-9]+$/);
    await call(sandbox.url, "POST", "/_sandbox/clock/advance", {
      body: { seconds: 0 },
      headers: keyed(key),
    });
    await expect.poll(() => bodies.length).toBe(1);
    expect(event?.data).toBe(bodies[0]);
    await stream.close();
  } finally {
    receiver.close();
  }
});

it("resumes after Last-Event-ID or ?after=, in cursor order, nothing skipped or twice", async () => {
  const key = "stream-resume";
  const customer = await createCustomer(key);
  await activate(key, customer);
  const all = await openEventStream(sandbox.url, { apiKey: key, query: { after: "0" } });
  const events = await all.waitForEvents(2);
  await all.close();
  const cursors = events.map((event) => Number(event.id));
  expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
  expect(new Set(cursors).size).toBe(cursors.length);
  expect(events[0]?.event).toBe("CustomerCreated");

  const first = events[0]?.id ?? "";
  const resumed = await openEventStream(sandbox.url, { apiKey: key, lastEventId: first });
  const again = await resumed.waitForEvents(events.length - 1);
  expect(again.map((event) => event.id)).toEqual(events.slice(1).map((event) => event.id));
  // A new event after the resumed ones comes once, next.
  await createCustomer(key);
  await resumed.waitForEvents(events.length);
  expect(resumed.events.slice(events.length - 1).map((event) => event.event)).toEqual([
    "CustomerCreated",
  ]);
  await resumed.close();

  // Last-Event-ID wins over the ?after= of the URL a reconnecting client reuses.
  const both = await openEventStream(sandbox.url, {
    apiKey: key,
    query: { after: "0" },
    lastEventId: events.at(-1)?.id ?? "",
  });
  await both.waitForEvents(1);
  expect(both.events[0]?.event).toBe("CustomerCreated");
  expect(Number(both.events[0]?.id)).toBeGreaterThan(Number(events.at(-1)?.id));
  await both.close();
});

it("sends only the topics asked for", async () => {
  const key = "stream-topics";
  const stream = await openEventStream(sandbox.url, {
    apiKey: key,
    query: { topics: "CustomerStatus" },
  });
  const customer = await createCustomer(key);
  await activate(key, customer);
  await stream.waitForEvents(1);
  await createCustomer(key);
  await activate(key, customer);
  expect(stream.events.every((event) => event.event === "CustomerStatus")).toBe(true);
  await stream.close();
});

it("sends each topic's event as the test-mode document's schema of it says (the types' source)", async () => {
  const key = "stream-schemas";
  const stream = await openEventStream(sandbox.url, { apiKey: key });
  const customer = await createCustomer(key);
  await activate(key, customer);
  const webhook = await call(sandbox.url, "POST", "/_sandbox/webhooks", {
    body: { url: "https://receiver.example/events", topics: ["Ping"] },
    headers: keyed(key),
  });
  const ping = await call(sandbox.url, "POST", `/webhooks/${webhook.body.id}/ping`, {
    body: { customer_id: customer },
    headers: { ...newKey(), ...keyed(key) },
  });
  expect(ping.status).toBe(200);
  // The ping's event comes last, after the customer's (how many status steps there are is the
  // lifecycle's): wait for it, not for a count.
  while (!stream.events.some((event) => event.event === "Ping")) {
    await stream.waitForEvents(stream.events.length + 1);
  }
  await stream.close();
  const topics = new Set(stream.events.map((event) => event.event));
  expect([...topics]).toEqual(
    expect.arrayContaining(["CustomerCreated", "CustomerStatus", "Ping"]),
  );
  for (const event of stream.events) {
    const body = JSON.parse(event.data);
    expect(body.topic).toBe(event.event);
    expect(testModeSchemaProblems("TopicEvent", body), event.data).toEqual([]);
  }
});

it("carries the events of the steps the clock runs, after those of the request, in order", async () => {
  const key = "stream-clock";
  const stream = await openEventStream(sandbox.url, {
    apiKey: key,
    query: { topics: "IdentificationStatus" },
  });
  const customer = await createCustomer(key);
  const identification = await call(sandbox.url, "POST", `/customers/${customer}/identifications`, {
    body: { type: "Direct" },
    headers: { ...newKey(), ...keyed(key) },
  });
  expect(identification.status).toBe(200);
  const advanced = await call(sandbox.url, "POST", "/_sandbox/clock/advance", {
    body: { seconds: 3600 },
    headers: keyed(key),
  });
  expect(advanced.status).toBe(200);
  // Created (the request), then at least one timed step (the clock's batch).
  await stream.waitForEvents(2);
  await stream.close();
  const statuses = stream.events.map((event) => JSON.parse(event.data).data.status);
  expect(new Set(statuses).size).toBeGreaterThan(1);
  const cursors = stream.events.map((event) => Number(event.id));
  expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
});

it("lists the event log newest first, each event with its cursor, filtered and paged, another key's never", async () => {
  const key = "stream-log";
  const first = await createCustomer(key);
  await activate(key, first);
  const second = await createCustomer(key);
  const list = async (query: string, as = key) => {
    const answer = await call(sandbox.url, "GET", `/_sandbox/events/log?${query}`, {
      headers: keyed(as),
    });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const all = await list("page_size=100");
  const cursors = all.items.map((event: { cursor: string }) => Number(event.cursor));
  expect(cursors).toEqual([...cursors].sort((a, b) => b - a));
  expect(all.items[0]).toMatchObject({ topic: "CustomerCreated", customer_id: second });
  const stream = await openEventStream(sandbox.url, { apiKey: key, query: { after: "0" } });
  await stream.waitForEvents(all.items.length);
  await stream.close();
  // Each listed event is the streamed one: the same body, its cursor first.
  for (const event of stream.events) {
    const listed = all.items.find((item: { cursor: string }) => item.cursor === event.id);
    const { cursor, ...body } = listed;
    expect(JSON.stringify(body)).toBe(event.data);
  }
  const created = await list(`topic=CustomerCreated&customer_id=${first}`);
  expect(created.items.map((event: { data: { id: string } }) => event.data.id)).toEqual([first]);
  // Paged: two at a time, the next page from the cursor, none twice.
  const one = await list("page_size=2");
  const two = await list(`page_size=2&cursor=${one.cursor}`);
  expect([...one.items, ...two.items].map((event: { cursor: string }) => event.cursor)).toEqual(
    all.items.slice(0, 4).map((event: { cursor: string }) => event.cursor),
  );
  expect((await list("page_size=100", "stream-log-hostile")).items).toEqual([]);
});

it("keeps an idle stream alive with heartbeat comments", async () => {
  const stream = await openEventStream(sandbox.url, { apiKey: "stream-idle" });
  await stream.waitForComment("heartbeat");
  expect(stream.events).toEqual([]);
  await stream.close();
});

it("says which events the log no longer holds before it resumes past them", async () => {
  const key = "stream-gap";
  await createCustomer(key);
  await createCustomer(key);
  const reset = await call(sandbox.url, "POST", "/_sandbox/reset", { headers: keyed(key) });
  expect(reset.status).toBe(200);
  await createCustomer(key);
  const stream = await openEventStream(sandbox.url, { apiKey: key, query: { after: "0" } });
  const [event] = await stream.waitForEvents(1);
  expect(event?.id).toBe("3");
  expect(stream.comments.filter((comment) => comment.startsWith("gap:"))).toEqual([
    "gap: the log no longer holds events 1 to 2 (it keeps only a partner's newest events, and a reset empties it)",
  ]);
  await stream.close();
  // Resumed from a cursor the log still follows on from: no gap to tell.
  const resumed = await openEventStream(sandbox.url, { apiKey: key, lastEventId: "2" });
  await resumed.waitForEvents(1);
  expect(resumed.comments.some((comment) => comment.startsWith("gap:"))).toBe(false);
  await resumed.close();
});

it("never sends one key's events in another's stream, resumed from 0 or not", async () => {
  const hostile = await openEventStream(sandbox.url, { apiKey: "stream-hostile" });
  const fromZero = await openEventStream(sandbox.url, {
    apiKey: "stream-hostile",
    query: { after: "0" },
  });
  const victim = "stream-victim";
  const own = await openEventStream(sandbox.url, { apiKey: victim });
  const customer = await createCustomer(victim);
  await activate(victim, customer);
  await own.waitForEvents(2);
  // The victim's events have reached its own stream; the hostile key's streams got none of them.
  await hostile.waitForComment("heartbeat");
  expect(hostile.events).toEqual([]);
  expect(fromZero.events.filter((event) => event.data.includes(customer))).toEqual([]);
  await Promise.all([hostile.close(), fromZero.close(), own.close()]);
});

it("refuses a cursor that is not one, a topic that is not one, and no key, with a problem", async () => {
  for (const query of ["after=soon", "topics=CustomerStatus,Nope"]) {
    const answer = await call(sandbox.url, "GET", `/_sandbox/events/stream?${query}`, {
      headers: keyed("stream-refused"),
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].field).toBe(query.split("=")[0]);
  }
  const noKey = await call(sandbox.url, "GET", "/_sandbox/events/stream", {
    headers: keyed(""),
  });
  expect(noKey.status).toBe(401);
});

it("reads a cursor, a topic list and Last-Event-ID sent empty as not sent, as the engine checks them", async () => {
  const key = "stream-sent-empty";
  const before = await createCustomer(key);
  // Read as values, they streamed the whole log from cursor 0, and no topic at all.
  const stream = await openEventStream(sandbox.url, {
    apiKey: key,
    query: { after: "", topics: "" },
    lastEventId: "",
  });
  const customer = await createCustomer(key);
  const [first] = await stream.waitForEvents(1);
  expect(first?.event).toBe("CustomerCreated");
  expect(first?.data).toContain(customer);
  expect(first?.data).not.toContain(before);
  await stream.close();
  const log = await call(sandbox.url, "GET", "/_sandbox/requests?status=&operation_id=", {
    headers: keyed(key),
  });
  expect(log.status).toBe(200);
  expect(log.body.items.length).toBeGreaterThan(0);
});

it("counts the receipts of forwarded events in the readiness report", async () => {
  const key = "stream-receipts";
  const stream = await openEventStream(sandbox.url, { apiKey: key });
  await createCustomer(key);
  const [event] = await stream.waitForEvents(1);
  await stream.close();
  const id = JSON.parse(event?.data ?? "{}").id;
  const cursor = event?.id ?? "";
  const recorded = await call(sandbox.url, "POST", "/_sandbox/events/receipts", {
    body: {
      receipts: [
        { id, cursor, status_code: 204 },
        { id, cursor, status_code: 500 },
        { id: "no-such-event", cursor, status_code: 204 },
        // The id of an event, at another's cursor.
        { id, cursor: String(Number(cursor) + 1000), status_code: 204 },
      ],
    },
    headers: keyed(key),
  });
  expect(recorded.body).toEqual({ counted: 2, unknown: ["no-such-event", id] });
  const report = await call(sandbox.url, "GET", "/_sandbox/readiness", { headers: keyed(key) });
  expect(report.body.coverage.topics.CustomerCreated).toMatchObject({
    delivered: 2,
    acknowledged: 1,
  });
  // Another key's receipt of the same id counts nothing for it.
  const other = await call(sandbox.url, "POST", "/_sandbox/events/receipts", {
    body: { receipts: [{ id, cursor, status_code: 204 }] },
    headers: keyed("stream-receipts-other"),
  });
  expect(other.body).toEqual({ counted: 0, unknown: [id] });
});
