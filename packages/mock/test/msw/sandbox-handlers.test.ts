// sandboxHandlers with MSW's setupServer, as a front end's vitest runs it: the project's client on
// the global fetch (which MSW intercepts), onboarding to Active, a funded onramp over a day of
// sandbox time, a fault rehearsed, two keys kept apart, events delivered to the callback.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { gzipSync } from "node:zlib";
import { createPaymentsClient } from "@org/payments-client";
import { specPath } from "@org/payments-spec";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type SandboxEvent, sandboxHandlers, type WebhookDelivery } from "../../src/msw/index.js";

const BASE_URL = "https://payments.api.test";
const delivered: WebhookDelivery[] = [];
const handlers = sandboxHandlers({
  baseUrl: BASE_URL,
  spec: specPath,
  onDelivery: (delivery) => {
    delivered.push(delivery);
  },
});
const server = setupServer(...handlers);
beforeAll(() => server.listen());
afterAll(async () => {
  server.close();
  await handlers.close();
});

const clientOf = (apiKey: string) =>
  createPaymentsClient({ apiKey, baseUrl: BASE_URL, maxRetries: 0 });

it("onboards a customer to Active and settles a funded onramp over a day", async () => {
  const partner = handlers.newPartner();
  const payments = clientOf(partner.apiKey);
  await partner.addWebhook({
    url: "https://app.test/events",
    topics: ["CustomerStatus", "TransactionStatus"],
  });
  const customer = await payments.customers.create({
    customer_type: "Business",
    email: "treasury@lumen.example",
    name: "Lumen Harbor Trading GmbH",
  });
  expect(customer.status).toBe("SigningsRequired");
  for (const { id } of (await payments.documents.listUnsigned(customer.id)).items) {
    if (id !== undefined)
      await payments.signings.create(customer.id, { document_id: id, signed: true });
  }
  await payments.identifications.createDirect(customer.id, { type: "Direct" });
  await partner.advanceClock({ seconds: 10 * 60 });
  const listed = await payments.customers.list();
  expect(listed.items.find((item) => item.id === customer.id)?.status).toBe("Active");

  const autoramp = await payments.autoramps.create({
    customer_id: customer.id,
    destination_currency: { blockchain: "Polygon", token: "USDC" },
    recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
    source_currencies: [{ code: "EUR", type: "Fiat" }],
  });
  expect(autoramp.status).toBe("Approved");
  const deposited = await partner.deposit(autoramp.id, { amount: "1000.00" });
  // Every field of a transaction is optional in the spec, its id too.
  const depositedId = deposited.id ?? "";
  expect(depositedId).not.toBe("");
  await partner.advanceClock({ seconds: 24 * 60 * 60 });
  const [transaction] = (await payments.autorampTransactions.listByIds({ ids: [depositedId] }))
    .items;
  expect(transaction?.state).toBe("Completed");

  const events = delivered
    .filter((delivery) => delivery.url === "https://app.test/events")
    .map((delivery) => delivery.event as SandboxEvent);
  const statusOf = (id: string) =>
    events
      .filter((event) => (event.data as { id: string }).id === id)
      .map((event) => (event.data as { status: string }).status);
  expect(statusOf(customer.id)).toEqual(["IdentificationRequired", "Active"]);
  expect(statusOf(depositedId).at(-1)).toBe("Completed");
  // The sandbox's own record of the deliveries agrees.
  expect((await partner.events({ topic: "CustomerStatus" })).length).toBe(2);
});

it("rehearses a fault: an armed 503 answers once, then the API answers again", async () => {
  const partner = handlers.newPartner();
  const payments = clientOf(partner.apiKey);
  await partner.armFault({ operation_id: "createCustomer", status: 503, times: 1 });
  await expect(
    payments.customers.create({ customer_type: "Person", email: "a@b.example" }),
  ).rejects.toMatchObject({ status: 503 });
  const customer = await payments.customers.create({
    customer_type: "Person",
    email: "a@b.example",
  });
  expect(customer.id).toMatch(/./);
  const log = await partner.requests();
  expect(log.map((entry) => entry.status)).toEqual(expect.arrayContaining([503, 200]));
});

it("keeps two keys apart", async () => {
  const [first, second] = [handlers.newPartner(), handlers.newPartner()];
  const customer = await clientOf(first.apiKey).customers.create({
    customer_type: "Person",
    email: "mine@b.example",
  });
  const seen = await clientOf(second.apiKey).customers.list();
  expect(seen.items.map((item) => item.id)).not.toContain(customer.id);
  await first.advanceClock({ seconds: 3600 });
  const [clockOfFirst, clockOfSecond] = [await first.clock(), await second.clock()];
  expect(clockOfFirst.ahead_by_seconds - clockOfSecond.ahead_by_seconds).toBeGreaterThanOrEqual(
    3600,
  );
});

it("answers the test mode's readiness and refuses a bad request with the API's problem", async () => {
  const health = await fetch(`${BASE_URL}/_sandbox/health`);
  expect(health.status).toBe(200);
  const refused = await fetch(`${BASE_URL}/customers`, {
    method: "POST",
    headers: { "x-api-key": handlers.apiKey, "content-type": "application/json" },
    body: JSON.stringify({ customer_type: "Robot" }),
  });
  expect(refused.status).toBe(422);
  expect(refused.headers.get("content-type")).toMatch(/json/);
  expect(await refused.json()).toMatchObject({ status: 422 });
});

it("refuses a body it cannot read as the servers do: a gzip bomb unopened, Latin-1, a BOM skipped", async () => {
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(`${BASE_URL}/customers`, {
      method: "POST",
      headers: {
        "x-api-key": handlers.apiKey,
        "content-type": "application/json",
        "idempotency-key": crypto.randomUUID(),
        ...headers,
      },
      body,
    });
  const bomb = await post(gzipSync(Buffer.alloc(10_000_000, 0x20)), { "content-encoding": "gzip" });
  expect(bomb.status).toBe(415);
  expect((await bomb.json()).errors).toMatchObject([
    { field: "Content-Encoding", rule: "encoding" },
  ]);
  const latin1 = await post(
    Buffer.from('{"customer_type":"Person","email":"\xE9@x.example"}', "latin1"),
  );
  expect(latin1.status).toBe(400);
  expect((await latin1.json()).errors).toMatchObject([{ location: "body", rule: "encoding" }]);
  const customer = JSON.stringify({ customer_type: "Person", email: "bom@x.example" });
  const bom = await post(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(customer)]));
  expect(bom.status).toBe(200);
});

it("keeps one connection for a test's requests, as a server's framed answers let fetch do", async () => {
  // MSW 3's setupServer hands fetch's requests to undici over emulated sockets (msw 2 answers at
  // the fetch call, and opens none): an answer of unknown length would end a connection each time.
  let connections = 0;
  const connected = () => {
    connections++;
  };
  subscribe("undici:client:connected", connected);
  try {
    const payments = clientOf(handlers.newPartner().apiKey);
    for (let sent = 0; sent < 20; sent++) {
      await payments.customers.create({ customer_type: "Person", email: `c${sent}@b.example` });
    }
  } finally {
    unsubscribe("undici:client:connected", connected);
  }
  expect(connections).toBeLessThanOrEqual(2);
});
