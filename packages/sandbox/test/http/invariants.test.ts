// Resources as the sandbox's requests, cascades and clock walk them keep their lifecycle's
// invariants (lifecycles.ts): checked on the resource each event carries, and on the fields the
// sandbox once got wrong (a fiat address Registered but not verified), with the clock's own
// account of an advance.

import { call, createCustomer, type Delivery, newKey, startReceiver } from "@org/payments-testing";
import { WEBHOOK_TOPICS } from "@org/payments-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTORAMP, LIFECYCLES, type Lifecycle } from "../../src/index.js";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

const CUSTOMER = "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f";
const AUTORAMP_ID = "d2a6f8c1-4b9e-4d7a-a3c5-8e1f6b2d9c47";

let sandbox: HttpSandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  sandbox = await startSandbox();
  receiver = await startReceiver();
  const added = await call(sandbox.url, "POST", "/_sandbox/webhooks", {
    body: { url: `${receiver.url}/hook`, topics: WEBHOOK_TOPICS },
  });
  expect(added.status).toBe(200);
});
afterAll(async () => {
  await sandbox?.stop();
  await receiver?.stop();
});

async function advance(seconds: number) {
  const answer = await call(sandbox.url, "POST", "/_sandbox/clock/advance", { body: { seconds } });
  expect(answer.status).toBe(200);
  return answer.body as { now: string; ahead_by_seconds: number };
}

async function post(path: string, body: unknown) {
  const answer = await call(sandbox.url, "POST", path, { body, headers: newKey() });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

const fiatAddress = async (id: string) =>
  (await call(sandbox.url, "GET", `/addresses/fiat/${CUSTOMER}/${id}`)).body;

describe("a fiat address", () => {
  it("has its ownership verified once Registered, not before", async () => {
    const added = await post(`/_sandbox/customers/${CUSTOMER}/fiat-addresses`, {
      iban: "DE89370400440532013000",
    });
    expect(added).toMatchObject({ status: "AuthorizationRequired", ownership_verified: false });
    await advance(60);
    expect(await fiatAddress(added.id)).toMatchObject({
      status: "RegistrationPending",
      ownership_verified: false,
    });
    await advance(120);
    expect(await fiatAddress(added.id)).toMatchObject({
      status: "Registered",
      ownership_verified: true,
    });
  });

  it("walked to Registered by the status route is verified too; one that fails is not", async () => {
    const walked = await post(`/_sandbox/customers/${CUSTOMER}/fiat-addresses`, {
      iban: "DE89370400440532013000",
    });
    expect(
      await post(`/_sandbox/addresses/fiat/${walked.id}/status`, { status: "Registered" }),
    ).toMatchObject({ status: "Registered", ownership_verified: true });
    const failing = await post(`/_sandbox/customers/${CUSTOMER}/fiat-addresses`, {
      iban: "DE89370400440532013000",
      outcome: "RegistrationFailed",
    });
    await advance(180);
    expect(await fiatAddress(failing.id)).toMatchObject({
      status: "RegistrationFailed",
      ownership_verified: false,
    });
  });
});

describe("the clock", () => {
  it("is exactly as far ahead as it was advanced, however long the work on the way takes", async () => {
    const before = (await call(sandbox.url, "GET", "/_sandbox/clock")).body.ahead_by_seconds;
    // Work due on the way (steps and their deliveries) takes real time during the advance.
    const busy = () =>
      post(`/_sandbox/customers/${CUSTOMER}/fiat-addresses`, { iban: "DE89370400440532013000" });
    await busy();
    expect((await advance(600)).ahead_by_seconds).toBe(before + 600);
    await busy();
    expect((await advance(600)).ahead_by_seconds).toBe(before + 1200);
    expect((await call(sandbox.url, "GET", "/_sandbox/clock")).body.ahead_by_seconds).toBe(
      before + 1200,
    );
  });
});

/** The lifecycle whose resource an event of `topic` carries. */
function lifecycleOfTopic(topic: string): Lifecycle | undefined {
  if (topic === "DepositAddressCreated") return AUTORAMP;
  return LIFECYCLES.find((l) => l.createdTopic === topic || l.statusTopic === topic);
}

describe("every resource an event carries", () => {
  it("keeps its lifecycle's invariants through an onboarding, a deposit and a bank account", async () => {
    const customer = await createCustomer(sandbox.url, { customer_type: "Business" });
    const unsigned = await call(sandbox.url, "GET", `/customers/${customer.id}/unsigned-documents`);
    for (const document of unsigned.body.items) {
      await post(`/customers/${customer.id}/signings`, { document_id: document.id, signed: true });
    }
    await post(`/customers/${customer.id}/identifications`, { type: "Direct" });
    await post("/autoramps", {
      customer_id: customer.id,
      destination_currency: { blockchain: "Polygon", token: "USDC" },
      recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
      source_currencies: [{ code: "EUR", type: "Fiat" }],
    });
    const deposited = await post(`/_sandbox/autoramps/${AUTORAMP_ID}/deposits`, {
      amount: "1000.00",
    });
    const rejected = await post(`/_sandbox/autoramps/${AUTORAMP_ID}/deposits`, {
      amount: "10.00",
      outcome: "FundsRejected",
    });
    const address = await post(`/_sandbox/customers/${customer.id}/fiat-addresses`, {
      iban: "DE89370400440532013000",
    });
    await advance(24 * 60 * 60);
    const carried = (id: string, status: string) => (delivery: Delivery) =>
      delivery.body.data?.id === id && delivery.body.data?.status === status;
    await expect
      .poll(() =>
        [
          carried(deposited.id, "Completed"),
          carried(rejected.id, "Refunded"),
          carried(address.id, "Registered"),
        ].every((found) => receiver.deliveries.some(found)),
      )
      .toBe(true);
    // The customer's invariants look at other resources; the others' at the resource alone.
    const alone = () => {
      throw new Error("an invariant of this lifecycle looks beyond its resource");
    };
    const checked = receiver.deliveries.flatMap(({ body }) => {
      const lifecycle = lifecycleOfTopic(body.topic);
      if (lifecycle === undefined || lifecycle.resource === "customer") return [];
      const broken = lifecycle.invariants.filter((i) => !i.holds(body.data, alone));
      return [{ event: `${body.topic} ${body.data.status}`, broken: broken.map((i) => i.says) }];
    });
    expect(checked.filter((entry) => entry.broken.length > 0)).toEqual([]);
    // Each of those lifecycles was walked.
    const topics = new Set(checked.map((entry) => entry.event.split(" ")[0]));
    for (const topic of ["IdentificationStatus", "RegisterAutorampStatus", "TransactionStatus"]) {
      expect(topics).toContain(topic);
    }
    expect(topics).toContain("RegisterFiatAddressStatus");
  });
});
