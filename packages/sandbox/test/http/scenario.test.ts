// End to end: a partner's integration flow, through @org/payments-client, against the sandbox,
// then a restart on the same state file.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPaymentsClient } from "@org/payments-client";
import { specPath } from "@org/payments-spec";
import { API_KEY, persistentState, startReceiver } from "@org/payments-testing";
import { afterAll, expect, it } from "vitest";
import { serveSandbox } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "payments-sandbox-scenario-"));
const state = await persistentState(dir, "state.db");
const receiver = await startReceiver();
afterAll(async () => {
  await receiver.stop();
  rmSync(dir, { recursive: true, force: true });
});

const WEBHOOK_ID = "f3a7c1e5-9b4d-4f2a-8c6e-1a3b5d7f9e02";
const TERMS_ID = "6e8a1d3f-2b5c-4e7a-9f0d-3c6b8e1a4d72";

it("onboards, identifies, signs, ramps, pages, delivers webhooks and survives a restart", async () => {
  const first = await serveSandbox({ spec: specPath, state, exampleKey: API_KEY });
  const payments = createPaymentsClient({ apiKey: API_KEY, baseUrl: first.url, maxRetries: 0 });
  const subPartnerId = crypto.randomUUID();
  const scoped = payments.forSubPartner(subPartnerId);

  const customer = await scoped.customers.create({
    customer_type: "Business",
    email: "treasury@lumen.example",
    name: "Lumen Sandbox GmbH",
    external_id: "crm-sandbox-1",
  });
  // Two documents of the seed wait for its signature.
  expect(customer).toMatchObject({ name: "Lumen Sandbox GmbH", status: "SigningsRequired" });

  const identification = await scoped.identifications.createDirect(customer.id, { type: "Direct" });
  const link = await scoped.identifications.createLink(customer.id, { type: "Link" });
  expect(link.url).toMatch(/^https:\/\//);
  const signing = await scoped.signings.create(customer.id, {
    document_id: TERMS_ID,
    signed: true,
  });
  const unsigned = await scoped.documents.listUnsigned(customer.id);
  expect(unsigned.items.map((document) => document.id)).not.toContain(TERMS_ID);

  const autoramp = await scoped.autoramps.create({
    customer_id: customer.id,
    destination_currency: { blockchain: "Polygon", token: "USDC" },
    recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
    source_currencies: [{ code: "EUR", type: "Fiat" }],
    external_id: "ramp-sandbox-1",
  });
  expect(await payments.autoramps.getByExternalId("ramp-sandbox-1")).toEqual(autoramp);

  for (let index = 0; index < 4; index++) {
    await scoped.customers.create({ customer_type: "Person", email: `p${index}@example.com` });
  }
  const walked: string[] = [];
  for await (const page of scoped
    .paginate("/customers", { params: { query: { page_size: 2 } } })
    .pages()) {
    expect(page.items.length).toBeLessThanOrEqual(2);
    walked.push(...page.items.map((item) => item.id));
  }
  expect(walked).toHaveLength(5);
  expect(new Set(walked)).toHaveLength(5);
  expect(walked[0]).toBe(customer.id);

  await payments.webhooks.update(WEBHOOK_ID, {
    url: `${receiver.url}/payments`,
    enabled: true,
    topics: ["CustomerStatus", "Ping"],
  });
  expect(await payments.webhooks.ping(WEBHOOK_ID, { customer_id: customer.id })).toBe(true);
  expect(receiver.deliveries[0]?.body).toMatchObject({ topic: "Ping", customer_id: customer.id });

  const changed = await fetch(`${first.url}/_sandbox/customers/${customer.id}/status`, {
    method: "POST",
    headers: { "X-API-Key": API_KEY, "Content-Type": "application/json" },
    body: JSON.stringify({ status: "Active" }),
  });
  expect(changed.status).toBe(200);
  // The walk from SigningsRequired passes IdentificationRequired: one event per step.
  const [, passed, event] = await receiver.waitFor(3);
  expect(passed?.body).toMatchObject({
    topic: "CustomerStatus",
    data: { status: "IdentificationRequired" },
  });
  expect(event?.body).toMatchObject({
    topic: "CustomerStatus",
    customer_id: customer.id,
    data: { id: customer.id, status: "Active" },
  });
  await first.stop();

  const second = await serveSandbox({ spec: specPath, state, exampleKey: API_KEY });
  try {
    const again = createPaymentsClient({ apiKey: API_KEY, baseUrl: second.url, maxRetries: 0 });
    const found = await again.customers.list({ search_term: "crm-sandbox-1" }, { subPartnerId });
    expect(found.items).toHaveLength(1);
    expect(found.items[0]).toMatchObject({
      id: customer.id,
      status: "Active",
      identification_ids: [identification.id, link.id],
      signing_ids: [signing.id],
    });
    const signings = await again.signings.list(customer.id, {}, { subPartnerId });
    expect(signings.items).toEqual([signing]);
    // The customer's activation approved its autoramp, whose deposit rails were then issued.
    const approved = await again.autoramps.getByExternalId("ramp-sandbox-1");
    expect(autoramp).toMatchObject({ status: "Created", deposit_rails: [] });
    expect(approved).toMatchObject({ id: autoramp.id, status: "Approved" });
    expect(approved.deposit_rails).toHaveLength(1);
    const webhooks = await again.webhooks.list();
    expect(webhooks.items[0]?.url).toBe(`${receiver.url}/payments`);
  } finally {
    await second.stop();
  }
}, 60_000);
