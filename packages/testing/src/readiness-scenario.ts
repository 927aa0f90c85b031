// A partner's integration as the readiness tests drive it, under one key of a running sandbox: a
// 503 rehearsed and recovered with the same IDEMPOTENCY-KEY, a customer onboarded to Active, an
// onramp funded that settles over a day, a receiver that acknowledges every topic but
// TransactionStatus, a POST refused for want of a key, a list read at its first page only, and no
// quote asked for. The sandbox's tests read the report it makes, the mock's its CLI's.
import { expect } from "vitest";
import { call } from "./call.ts";
import { startReceiver } from "./receiver.ts";

/** A key of a running sandbox: the partner its requests act as. */
export interface PartnerKey {
  url: string;
  apiKey: string;
}

const TOPICS = [
  "Transaction",
  "NewBankAccount",
  "NewAutoramp",
  "DepositAddressCreated",
  "RegisterFiatAddressStatus",
  "RegisterAutorampStatus",
  "TransactionStatus",
  "CustomerCreated",
  "CustomerStatus",
  "IdentificationStatus",
  "Ping",
];

/** A call under the partner's key; a POST with a new IDEMPOTENCY-KEY unless `key` says otherwise. */
export const callAs = (
  partner: PartnerKey,
  method: string,
  path: string,
  body?: unknown,
  key: string | null = crypto.randomUUID(),
) =>
  call(partner.url, method, path, {
    ...(body !== undefined && { body }),
    headers: {
      "X-API-Key": partner.apiKey,
      ...(method === "POST" && key !== null && { "IDEMPOTENCY-KEY": key }),
    },
  });

async function ok(answer: Promise<{ status: number; body: unknown }>) {
  const done = await answer;
  expect(done.status, JSON.stringify(done.body)).toBeLessThan(300);
  // biome-ignore lint/suspicious/noExplicitAny: answers read as loose JSON
  return done.body as any;
}

/** Drives the integration under `partner`; returns the fault it rehearsed and the receiver to stop. */
export async function driveIntegration(partner: PartnerKey) {
  // Every topic acknowledged but TransactionStatus, which always fails.
  // (The receiver records a delivery just before it answers it: the last one is this one.)
  const receiver = await startReceiver((_, response) => {
    const topic = receiver.deliveries.at(-1)?.body?.topic;
    response.writeHead(topic === "TransactionStatus" ? 500 : 204).end();
  });
  const as = (method: string, path: string, body?: unknown, key?: string | null) =>
    callAs(partner, method, path, body, key);
  await ok(as("POST", "/_sandbox/webhooks", { url: `${receiver.url}/a`, topics: TOPICS }));
  // A 503 rehearsed on the create, and recovered: the same IDEMPOTENCY-KEY again, answered 2xx.
  const fault: { id: string } = await ok(
    as("POST", "/_sandbox/faults", { operation_id: "createCustomer", status: 503 }),
  );
  const ada = { customer_type: "Person", email: "ada@example.com", name: "Ada Lovelace" };
  const key = crypto.randomUUID();
  expect((await as("POST", "/customers", ada, key)).status).toBe(503);
  // Onboarded to Active: every document signed, a Direct identification approved an hour later.
  const customer = await ok(as("POST", "/customers", ada, key));
  const unsigned = await ok(as("GET", `/customers/${customer.id}/unsigned-documents`));
  for (const document of unsigned.items) {
    await ok(
      as("POST", `/customers/${customer.id}/signings`, { document_id: document.id, signed: true }),
    );
  }
  await ok(as("POST", `/customers/${customer.id}/identifications`, { type: "Direct" }));
  await ok(as("POST", "/_sandbox/clock/advance", { seconds: 3600 }));
  // An onramp funded, settled over a day.
  const autoramp = await ok(
    as("POST", "/autoramps", {
      customer_id: customer.id,
      destination_currency: { blockchain: "Polygon", token: "USDC" },
      recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
      source_currencies: [{ code: "EUR", type: "Fiat" }],
    }),
  );
  await ok(as("POST", `/_sandbox/autoramps/${autoramp.id}/deposits`, { amount: "1000.00" }));
  await ok(as("POST", "/_sandbox/clock/advance", { seconds: 24 * 3600 }));
  await ok(as("POST", `/customers/${customer.id}/identifications/v2`, { type: "Link" }));
  // A POST without a key (refused: the API requires one), and a list read at its first page only.
  expect((await as("POST", "/customers", { customer_type: "Person" }, null)).status).toBe(422);
  const first = await ok(as("GET", "/customers?page_size=1"));
  expect(first.cursor).toBeUndefined();
  return { fault, receiver };
}

/** The partner's readiness report, as GET /_sandbox/readiness answers it. */
export async function readinessOf(partner: PartnerKey) {
  const answer = await callAs(partner, "GET", "/_sandbox/readiness");
  expect(answer.status).toBe(200);
  return answer.body;
}
