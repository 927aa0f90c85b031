// The sandbox with no server: fetchSandbox answers WHATWG Requests with the same composition as
// the Node server, the project's client created with its fetch, deliveries to a callback.
import { gzipSync } from "node:zlib";
import { createPaymentsClient } from "@org/payments-client";
import { specPath } from "@org/payments-spec";
import { rawExchange } from "@org/payments-testing";
import { afterAll, expect, it } from "vitest";
import { fetchSandbox, serveSandbox, type WebhookDelivery } from "../../src/index.js";

const deliveries: WebhookDelivery[] = [];
const sandbox = await fetchSandbox({
  spec: specPath,
  webhookTransport: (delivery) => {
    deliveries.push(delivery);
  },
});
afterAll(() => sandbox.close());

it("runs a customer to Active through the client on fetch, the clock and events in its controls", async () => {
  const partner = sandbox.newPartner();
  const payments = createPaymentsClient({
    apiKey: partner.apiKey,
    baseUrl: sandbox.url,
    fetch: sandbox.fetch,
    maxRetries: 0,
  });
  const customer = await payments.customers.create({
    customer_type: "Person",
    email: "ada@lumen.example",
  });
  await partner.setStatus("customers", customer.id, "Active");
  const listed = await payments.customers.list();
  expect(listed.items.find((item) => item.id === customer.id)?.status).toBe("Active");
  const before = await partner.clock();
  await partner.advanceClock({ seconds: 86_400 });
  const after = await partner.clock();
  expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(86_400_000);
});

const UUID = "0e2f4a6c-8b1d-4f3a-9c5e-7a9b1c3d5e70";

it("refuses what the Node server refuses, in the same words", async () => {
  const server = await serveSandbox({ spec: specPath });
  try {
    for (const [path, init] of [
      [
        "/customers",
        { method: "POST", body: "{", headers: { "content-type": "application/json" } },
      ],
      ["/customers", { method: "PATCH" }],
      ["/nowhere", {}],
      ["/customers?page_size=%zz", {}],
      ["/_sandbox/clock", { method: "DELETE" }],
      ["/customers", { headers: { "x-padding": "p".repeat(20_000) } }],
      // A byte order mark is left out on both; bytes that are not UTF-8 are refused on both.
      [
        "/customers",
        {
          method: "POST",
          body: Buffer.from("\uFEFF{}"),
          headers: { "content-type": "application/json", "idempotency-key": UUID },
        },
      ],
      [
        "/customers",
        {
          method: "POST",
          body: Buffer.from('{"email":"\xE9"}', "latin1"),
          headers: { "content-type": "application/json; charset=latin1" },
        },
      ],
      [
        "/customers",
        {
          method: "POST",
          body: gzipSync(Buffer.alloc(10_000_000, 0x20)),
          headers: { "content-type": "application/json", "content-encoding": "gzip" },
        },
      ],
    ] as const) {
      const headers = { "x-api-key": "sandbox-test-same", ...init.headers };
      const overHttp = await fetch(`${server.url}${path}`, { ...init, headers });
      const overFetch = await sandbox.fetch(path, { ...init, headers });
      expect(overFetch.status, path).toBe(overHttp.status);
      const [bodyOverHttp, bodyOverFetch] = [await overHttp.json(), await overFetch.json()];
      expect(bodyOverFetch, path).toEqual(bodyOverHttp);
      expect(overFetch.headers.get("allow")).toBe(overHttp.headers.get("allow"));
      expect(overFetch.headers.get("x-request-id")).toMatch(/./);
    }
  } finally {
    await server.stop();
  }
});

it("refuses a request with two API keys with a 400 naming X-API-Key, never a third partner's answer", async () => {
  const server = await serveSandbox({ spec: specPath });
  const [first, second] = [sandbox.newPartner(), sandbox.newPartner()];
  const refused = {
    status: 400,
    errors: [{ location: "header", field: "X-API-Key", rule: "unique" }],
  };
  try {
    for (const path of ["/customers", "/_sandbox/clock"]) {
      // Over HTTP, as two header lines.
      const answer = await rawExchange(
        server.url,
        `GET ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${first.apiKey}\r\nX-API-Key: ${second.apiKey}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.split("\r\n")[0], path).toBe("HTTP/1.1 400 Bad Request");
      const body = answer.slice(answer.indexOf("{"), answer.lastIndexOf("}") + 1);
      expect(JSON.parse(body), path).toMatchObject(refused);
      expect(body).not.toContain(first.apiKey);
      // On fetch, where Headers joins them.
      const headers = new Headers([
        ["x-api-key", first.apiKey],
        ["x-api-key", second.apiKey],
      ]);
      const overFetch = await sandbox.fetch(path, { headers });
      expect(overFetch.status, path).toBe(400);
      expect(await overFetch.json(), path).toMatchObject(refused);
    }
  } finally {
    await server.stop();
  }
});

it("delivers webhook events to the callback, and keeps two keys apart", async () => {
  const first = sandbox.newPartner();
  const second = sandbox.newPartner();
  const payments = createPaymentsClient({
    apiKey: first.apiKey,
    baseUrl: sandbox.url,
    fetch: sandbox.fetch,
    maxRetries: 0,
  });
  const customer = await payments.customers.create({
    customer_type: "Person",
    email: "a@b.example",
  });
  const webhook = await first.addWebhook({
    url: "https://receiver.test/payments",
    topics: ["Ping"],
  });
  expect(await payments.webhooks.ping(webhook.id, { customer_id: customer.id })).toBe(true);
  expect(deliveries.at(-1)).toMatchObject({
    url: "https://receiver.test/payments",
    event: { topic: "Ping", customer_id: customer.id },
  });
  const other = createPaymentsClient({
    apiKey: second.apiKey,
    baseUrl: sandbox.url,
    fetch: sandbox.fetch,
    maxRetries: 0,
  });
  const seen = await other.customers.list();
  expect(seen.items.map((item) => item.id)).not.toContain(customer.id);
  expect(await first.events()).not.toEqual([]);
  expect(await second.events()).toEqual([]);
});

it("answers a body past the limit with a 413, and a dropped answer as a network error", async () => {
  const partner = sandbox.newPartner();
  const headers = { "x-api-key": partner.apiKey, "content-type": "application/json" };
  const large = await sandbox.fetch("/customers", {
    method: "POST",
    headers,
    body: `{"email":"${"a".repeat(1024 * 1024)}"}`,
  });
  expect(large.status).toBe(413);
  expect(await large.json()).toMatchObject({ status: 413 });
  await partner.armFault({ operation_id: "createCustomer", drop: "after_commit", times: 1 });
  const dropped = await sandbox.fetch("/customers", {
    method: "POST",
    headers: { ...headers, "idempotency-key": crypto.randomUUID() },
    body: JSON.stringify({ customer_type: "Person", email: "drop@b.example" }),
  });
  expect(dropped.type).toBe("error");
  expect(dropped.status).toBe(0);
});

it("frames a whole answer by its length in bytes, as a server does, and a bodiless one not at all", async () => {
  const partner = sandbox.newPartner();
  const headers = { "x-api-key": partner.apiKey, "content-type": "application/json" };
  const created = await sandbox.fetch("/customers", {
    method: "POST",
    headers: { ...headers, "idempotency-key": crypto.randomUUID() },
    body: JSON.stringify({ customer_type: "Person", email: "zoe@b.example", name: "Zoë Ørsted" }),
  });
  const bytes = new Uint8Array(await created.arrayBuffer());
  expect(created.status).toBe(200);
  expect(new TextDecoder().decode(bytes)).toContain("Zoë Ørsted");
  expect(created.headers.get("content-length")).toBe(String(bytes.byteLength));
  const head = await sandbox.fetch("/customers", { method: "HEAD", headers });
  expect(head.headers.get("content-length")).toBeNull();
});

it("writes no more of an event stream than its reader takes", async () => {
  const quick = await fetchSandbox({ spec: specPath, eventStream: { heartbeatMs: 25 } });
  try {
    const partner = quick.newPartner();
    const response = await quick.fetch(`${quick.url}/_sandbox/events/stream`, {
      headers: { "x-api-key": partner.apiKey },
    });
    expect(response.status).toBe(200);
    // Not read for half a second: a heartbeat every 25 ms would pile up in the answer's queue.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const reader = response.body?.getReader();
    const decoder = new TextDecoder();
    let queued = "";
    // What is queued comes at once; the next heartbeat only after 25 ms.
    for (;;) {
      const read = await Promise.race([
        reader?.read(),
        new Promise<undefined>((resolve) => setTimeout(resolve, 5)),
      ]);
      if (read === undefined || read.done) break;
      queued += decoder.decode(read.value);
    }
    await reader?.cancel();
    expect(queued.split(": heartbeat").length - 1).toBeLessThanOrEqual(2);
  } finally {
    await quick.close();
  }
});
