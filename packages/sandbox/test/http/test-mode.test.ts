// The sandbox as the service's test mode, on every store: a customer onboarded with clock advances
// only, an autoramp funded by a simulated deposit and settled, every topic sent, illegal
// transitions refused, failed deliveries retried on the clock with the same event id.

import { call, newKey, type Reply, startReceiver } from "@org/payments-testing";
import { WEBHOOK_TOPICS } from "@org/payments-types";
import { afterEach, describe, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

const ALL_TOPICS = WEBHOOK_TOPICS;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandboxWithReceiver(reply?: Reply) {
  const sandbox: HttpSandbox = await startSandbox();
  cleanups.push(() => sandbox.stop());
  const receiver = await startReceiver(reply);
  cleanups.push(() => receiver.stop());
  const added = await call(sandbox.url, "POST", "/_sandbox/webhooks", {
    body: { url: `${receiver.url}/hook`, topics: ALL_TOPICS, label: "every topic" },
  });
  expect(added.status).toBe(200);
  return { url: sandbox.url, receiver, webhook: added.body };
}

const advance = async (url: string, seconds: number) => {
  const answer = await call(url, "POST", "/_sandbox/clock/advance", { body: { seconds } });
  expect(answer.status).toBe(200);
  return answer.body;
};

const post = async (url: string, path: string, body: unknown) => {
  const answer = await call(url, "POST", path, { body, headers: newKey() });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
};

/** A customer taken to Active with API calls and clock advances only. */
async function onboard(url: string, fields: Record<string, unknown> = {}) {
  const customer = await post(url, "/customers", {
    customer_type: "Business",
    email: "treasury@lumen.example",
    name: "Lumen",
    ...fields,
  });
  expect(customer.status).toBe("SigningsRequired");
  const unsigned = await call(url, "GET", `/customers/${customer.id}/unsigned-documents`);
  for (const document of unsigned.body.items) {
    await post(url, `/customers/${customer.id}/signings`, {
      document_id: document.id,
      signed: true,
    });
  }
  const identification = await post(url, `/customers/${customer.id}/identifications`, {
    type: "Direct",
  });
  expect(identification.status).toBe("Pending");
  await advance(url, 3600);
  return { customer, identification };
}

/** An EUR → USDC (Polygon) autoramp of the customer. */
const eurToUsdc = (url: string, customerId: string) =>
  post(url, "/autoramps", {
    customer_id: customerId,
    destination_currency: { blockchain: "Polygon", token: "USDC" },
    recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
    source_currencies: [{ code: "EUR", type: "Fiat" }],
  });

const customerOf = async (url: string, id: string) =>
  (await call(url, "GET", `/customers?search_term=${id}`)).body.items[0];

describe("test mode", () => {
  it("onboards a customer to Active with clock advances only, one event per step", async () => {
    const { url, receiver } = await sandboxWithReceiver();
    const { customer, identification } = await onboard(url);
    expect(await customerOf(url, customer.id)).toMatchObject({ status: "Active" });
    const mine = receiver.deliveries
      .map((delivery) => delivery.body)
      .filter((event) => event.customer_id === customer.id);
    expect(mine.map((event) => `${event.topic}:${event.data.status}`)).toEqual([
      "CustomerCreated:SigningsRequired",
      "CustomerStatus:IdentificationRequired",
      "IdentificationStatus:Pending",
      "IdentificationStatus:Processed",
      "IdentificationStatus:PendingReview",
      "IdentificationStatus:Approved",
      "CustomerStatus:Active",
    ]);
    const approved = mine[5].data;
    expect(approved.id).toBe(identification.id);
    // A Business has every step; each follows the identification's result.
    expect(Object.keys(approved.step_status).sort()).toEqual([
      "company_beneficiaries",
      "company_data",
      "company_documents",
      "questionnaire",
    ]);
    expect(approved.step_status.company_data).toEqual({ result: "Approved", retry: false });
    // The review took the documented 5 minutes of sandbox time.
    const took = Date.parse(approved.updated_at) - Date.parse(identification.created_at);
    expect(took).toBeGreaterThanOrEqual(5 * 60_000);
    expect(took).toBeLessThan(6 * 60_000);
  });

  it("declines the identification of an email ending in +declined; a Person has no company steps", async () => {
    const { url } = await sandboxWithReceiver();
    const { customer, identification } = await onboard(url, {
      customer_type: "Person",
      email: "ada+declined@example.com",
    });
    expect(Object.keys(identification.step_status)).toEqual(["questionnaire"]);
    expect(await customerOf(url, customer.id)).toMatchObject({ status: "IdentificationRequired" });
    const events = (await call(url, "GET", "/_sandbox/events")).body.items;
    const last = events.find(
      (event: { payload: { topic: string } }) => event.payload.topic === "IdentificationStatus",
    );
    expect(last.payload.data).toMatchObject({
      status: "Declined",
      step_status: { questionnaire: { result: "Declined", retry: true } },
    });
  });

  it("expires an approved identification after a year, and its customer needs another", async () => {
    const { url, receiver } = await sandboxWithReceiver();
    const { customer, identification } = await onboard(url);
    await advance(url, 364 * 24 * 3600);
    expect(await customerOf(url, customer.id)).toMatchObject({ status: "Active" });
    await advance(url, 2 * 24 * 3600);
    expect(await customerOf(url, customer.id)).toMatchObject({ status: "IdentificationRequired" });
    const last = receiver.deliveries.map((delivery) => delivery.body).slice(-2);
    expect(last.map((event) => `${event.topic}:${event.data.id}:${event.data.status}`)).toEqual([
      `IdentificationStatus:${identification.id}:Expired`,
      `CustomerStatus:${customer.id}:IdentificationRequired`,
    ]);
  });

  it("gives an autoramp from a crypto source a crypto wallet rail on the source's blockchain", async () => {
    const { url } = await sandboxWithReceiver();
    const { customer } = await onboard(url);
    const autoramp = await post(url, "/autoramps", {
      customer_id: customer.id,
      destination_currency: { blockchain: "Solana", token: "USDC" },
      recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
      source_currencies: [{ blockchain: "Polygon", token: "USDC" }],
    });
    expect(autoramp.status).toBe("Approved");
    expect(autoramp.deposit_rails).toEqual([
      { blockchain: "Polygon", wallet_address: expect.stringMatching(/^0x[0-9a-f]{40}$/) },
    ]);
    expect(JSON.stringify(autoramp.deposit_rails)).not.toContain("iban");
  });

  it("refuses an autoramp no deposit could be priced for, naming the currency, and negative bips", async () => {
    const { url } = await sandboxWithReceiver();
    const { customer } = await onboard(url);
    const create = (fields: Record<string, unknown>) =>
      call(url, "POST", "/autoramps", {
        body: {
          customer_id: customer.id,
          destination_currency: { blockchain: "Polygon", token: "USDC" },
          recipient_account: {
            type: "Fiat",
            account_identifier: { iban: "DE89370400440532013000" },
          },
          source_currencies: [{ code: "EUR", type: "Fiat" }],
          ...fields,
        },
        headers: newKey(),
      });
    const refused = await create({
      destination_currency: { blockchain: "Ethereum", token: "SOL" },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        location: "body",
        field: "destination_currency",
        rule: "supported",
      }),
    ]);
    const none = await create({ source_currencies: [] });
    expect(none.body.errors).toEqual([
      expect.objectContaining({ field: "source_currencies", rule: "minItems" }),
    ]);
    const negative = await create({ additional_partner_fee_in_bips: "-1" });
    expect(negative.body.errors).toEqual([
      expect.objectContaining({ field: "additional_partner_fee_in_bips", rule: "minimum" }),
    ]);
  });

  it("gives a token listed without its blockchain the wallet rail of the chain its deposits are priced on", async () => {
    const { url } = await sandboxWithReceiver();
    const { customer } = await onboard(url);
    const autoramp = await post(url, "/autoramps", {
      customer_id: customer.id,
      destination_currency: { blockchain: "Solana", token: "USDC" },
      recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
      source_currencies: [{ token: "USDT" }],
    });
    expect(autoramp.deposit_rails).toEqual([
      { blockchain: "Ethereum", wallet_address: expect.stringMatching(/^0x[0-9a-f]{40}$/) },
    ]);
    const deposited = await call(url, "POST", `/_sandbox/autoramps/${autoramp.id}/deposits`, {
      body: { amount: "100" },
    });
    expect(deposited.body.source).toMatchObject({ blockchain: "Ethereum" });
  });

  it("makes an offramp of a crypto source to a fiat token: a wallet rail, an Offramp transaction paid out by wire", async () => {
    const { url } = await sandboxWithReceiver();
    const { customer } = await onboard(url);
    const offramp = await post(url, "/autoramps", {
      customer_id: customer.id,
      destination_currency: { token: "EUR" },
      recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
      source_currencies: [{ blockchain: "Solana", token: "USDC" }],
    });
    expect(offramp.deposit_rails).toEqual([
      { blockchain: "Solana", wallet_address: expect.any(String) },
    ]);
    const deposited = await call(url, "POST", `/_sandbox/autoramps/${offramp.id}/deposits`, {
      body: { amount: "100.00" },
    });
    expect(deposited.status).toBe(200);
    expect(deposited.body).toMatchObject({
      source_amount: { currency: { code: "USDC", type: "Crypto" } },
      destination_amount: { currency: { code: "EUR", type: "Fiat" } },
      source: { blockchain: "Solana" },
    });
    await advance(url, 24 * 3600);
    const listed = await call(url, "GET", "/autoramp-transactions?ramp_type=Offramp");
    expect(listed.body.items).toHaveLength(1);
    const [paid] = listed.body.items;
    expect(paid).toMatchObject({ id: deposited.body.id, status: "Completed" });
    expect(paid.payment_tracking.omad).toMatch(/^\d{8}SANDBOX0\d{6}$/);
    expect(paid.payout_crypto_transaction).toBeUndefined();
  });

  it("deposits a token on the blockchain the deposit's source_currency names, among the autoramp's", async () => {
    const { url } = await sandboxWithReceiver();
    const autoramp = await post(url, "/autoramps", {
      // The seed's customer is Active.
      customer_id: "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
      destination_currency: { token: "EUR" },
      recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
      source_currencies: [
        { token: "USDC", blockchain: "Polygon" },
        { token: "USDC", blockchain: "Solana" },
      ],
    });
    const deposit = (source_currency: unknown) =>
      call(url, "POST", `/_sandbox/autoramps/${autoramp.id}/deposits`, {
        body: { amount: "100", source_currency },
      });
    const solana = await deposit({ token: "USDC", blockchain: "Solana" });
    expect(solana.body.source).toMatchObject({ blockchain: "Solana" });
    expect((await deposit("USDC")).body.source).toMatchObject({ blockchain: "Polygon" });
    const base = await deposit({ token: "USDC", blockchain: "Base" });
    expect(base.status).toBe(422);
    expect(base.body.errors).toEqual([
      expect.objectContaining({ field: "source_currency", rule: "enum" }),
    ]);
    expect(base.body.errors[0].message).toContain("USDC on Polygon, USDC on Solana");
  });

  it("takes no deposit for a customer that is no longer Active, and takes it again once it is", async () => {
    const { url } = await sandboxWithReceiver();
    // The seed's customer is Active.
    const customerId = "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f";
    const autoramp = await eurToUsdc(url, customerId);
    expect(autoramp.status).toBe("Approved");
    const setStatus = (status: string) =>
      post(url, `/_sandbox/customers/${customerId}/status`, { status });
    const deposit = () =>
      call(url, "POST", `/_sandbox/autoramps/${autoramp.id}/deposits`, { body: { amount: "100" } });
    await setStatus("Suspended");
    const refused = await deposit();
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      type: "urn:org:payments-mock:problem:customer-not-active",
      errors: [{ location: "path", field: "id", rule: "customer-status" }],
    });
    expect(refused.body.errors[0].message).toContain("Suspended");
    await setStatus("Active");
    expect((await deposit()).status).toBe(200);
  });

  it("funds an autoramp with a simulated deposit, priced as a quote is, and settles it on the clock", async () => {
    const { url, receiver } = await sandboxWithReceiver();
    const { customer } = await onboard(url);
    const autoramp = await eurToUsdc(url, customer.id);
    // Its customer is Active: approved at once, its deposit rails issued.
    expect(autoramp.status).toBe("Approved");
    expect(autoramp.deposit_rails[0]).toMatchObject({ iban: "XX00SANDBOX0000000000" });
    const quote = await call(
      url,
      "GET",
      `/autoramps/quote?customer_id=${customer.id}&source_currency_code=EUR&destination_currency_code=USDC&destination_currency_chain=Polygon&recipient_account=DE89370400440532013000&amount_in=1000.00&rate_expiry_policy=Return&expiry_in_hours=1&is_third_party=false`,
    );
    expect(quote.status).toBe(200);
    const deposited = await call(url, "POST", `/_sandbox/autoramps/${autoramp.id}/deposits`, {
      body: { amount: "1000.00" },
    });
    expect(deposited.status).toBe(200);
    const transaction = deposited.body;
    expect(transaction).toMatchObject({
      autoramp_id: autoramp.id,
      customer_id: customer.id,
      state: "Pending",
      status: "FundsReceived",
      source_amount: quote.body.amount_in,
      destination_amount: quote.body.amount_out,
      exchange_rate: quote.body.rate,
      fee_breakdown: quote.body.fee,
    });
    expect(transaction.payment_tracking.imad).toMatch(/^\d{8}SANDBOX0\d{6}$/);
    await advance(url, 24 * 3600);
    const listed = await call(url, "GET", `/autoramp-transactions?autoramp_id=${autoramp.id}`);
    expect(listed.body.items).toHaveLength(1);
    expect(listed.body.items[0]).toMatchObject({
      id: transaction.id,
      state: "Completed",
      status: "Completed",
    });
    expect(listed.body.items[0].payout_crypto_transaction.transaction_hash).toMatch(
      /^0x[0-9a-f]{64}$/,
    );
    const steps = receiver.deliveries
      .map((delivery) => delivery.body)
      .filter((event) => event.data.id === transaction.id)
      .map((event) => `${event.topic}:${event.data.state}/${event.data.status}`);
    expect(steps).toEqual([
      "Transaction:Pending/FundsReceived",
      "TransactionStatus:Pending/FundsReviewInProgress",
      "TransactionStatus:Processing/ExchangeInProgress",
      "TransactionStatus:Processing/PayoutInProgress",
      "TransactionStatus:Completed/Completed",
    ]);
  });

  it("fails a deposit at the step its outcome names, and refunds rejected funds", async () => {
    const { url } = await sandboxWithReceiver();
    const { customer } = await onboard(url);
    const autoramp = await eurToUsdc(url, customer.id);
    const deposit = (body: object) =>
      call(url, "POST", `/_sandbox/autoramps/${autoramp.id}/deposits`, {
        body: { amount: "250.00", ...body },
      });
    // "failed" is PayoutFailed; the currency may be given as the autoramp lists it.
    const failed = (await deposit({ outcome: "failed" })).body;
    const rejected = (
      await deposit({ outcome: "FundsRejected", source_currency: { code: "EUR", type: "Fiat" } })
    ).body;
    expect(rejected.source_amount).toEqual({
      amount: "250.00",
      currency: { code: "EUR", type: "Fiat" },
    });
    await advance(url, 24 * 3600);
    const listed = await call(url, "GET", `/autoramp-transactions?autoramp_id=${autoramp.id}`);
    const byId = new Map(listed.body.items.map((item: { id: string }) => [item.id, item]));
    expect(byId.get(failed.id)).toMatchObject({ state: "Failed", status: "PayoutFailed" });
    expect(byId.get(rejected.id)).toMatchObject({ state: "Refunded", status: "Refunded" });
  });

  it("refuses an illegal transition with 422 naming the current, requested and reachable states", async () => {
    const { url } = await sandboxWithReceiver();
    const { identification } = await onboard(url);
    const refused = await call(
      url,
      "POST",
      `/_sandbox/identifications/${identification.id}/status`,
      {
        body: { status: "Pending" },
      },
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      current: "Approved",
      requested: "Pending",
      reachable: ["Expired"],
      errors: [{ location: "body", field: "status", rule: "transition" }],
    });
    expect(refused.body.detail).toMatch(/is Approved and cannot become Pending.*Expired/);
    const forced = await call(
      url,
      "POST",
      `/_sandbox/identifications/${identification.id}/status`,
      {
        body: { status: "Pending", force: true },
      },
    );
    expect(forced.body).toMatchObject({ id: identification.id, status: "Pending" });
  });

  it("sends all 11 topics, each from the change that causes it", async () => {
    const { url, receiver, webhook } = await sandboxWithReceiver();
    const { customer } = await onboard(url);
    const autoramp = await eurToUsdc(url, customer.id);
    await call(url, "POST", `/_sandbox/autoramps/${autoramp.id}/deposits`, {
      body: { amount: "100.00" },
    });
    const address = await call(url, "POST", `/_sandbox/customers/${customer.id}/fiat-addresses`, {
      body: { iban: "de89 3704 0044 0532 0130 00" },
    });
    expect(address.body).toMatchObject({
      status: "AuthorizationRequired",
      bank_account_identifier: { iban: "DE89370400440532013000" },
      country: "DE",
    });
    await post(url, "/addresses/crypto/hosted", {
      blockchain: "Polygon",
      customer_id: customer.id,
      vasp_did: "did:web:vasp.example",
      wallet_address: "0x4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c",
    });
    expect(await post(url, `/webhooks/${webhook.id}/ping`, { customer_id: customer.id })).toBe(
      true,
    );
    await advance(url, 3600);
    const fiat = await call(url, "GET", `/addresses/fiat/${customer.id}/${address.body.id}`);
    expect(fiat.body.status).toBe("Registered");
    const topics = new Set(receiver.deliveries.map((delivery) => delivery.body.topic));
    expect([...topics].sort()).toEqual([...ALL_TOPICS].sort());
    // At least once, and here exactly once: no event id arrived twice.
    const ids = receiver.deliveries.map((delivery) => delivery.body.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("retries a failed delivery on the clock's schedule with the same event id, then redelivers on request", async () => {
    let calls = 0;
    const { url, receiver } = await sandboxWithReceiver((_, response) => {
      calls++;
      response.writeHead(calls <= 2 ? 500 : 204).end();
    });
    const customer = await post(url, "/customers", {
      customer_type: "Person",
      email: "retry@example.com",
    });
    const [first] = await receiver.waitFor(1);
    expect(first?.body).toMatchObject({ topic: "CustomerCreated", customer_id: customer.id });
    // The first retry is due a minute later, the second five minutes after that.
    await expect
      .poll(async () => (await call(url, "GET", "/_sandbox/events")).body.items.length)
      .toBe(1);
    await advance(url, 59);
    expect(receiver.deliveries).toHaveLength(1);
    await advance(url, 1);
    expect(receiver.deliveries).toHaveLength(2);
    await advance(url, 300);
    expect(receiver.deliveries.map((delivery) => delivery.body.id)).toEqual([
      first?.body.id,
      first?.body.id,
      first?.body.id,
    ]);
    const attempts = (await call(url, "GET", "/_sandbox/events")).body.items;
    expect(
      attempts.map((a: { attempt: number; delivered: boolean }) => [a.attempt, a.delivered]),
    ).toEqual([
      [3, true],
      [2, false],
      [1, false],
    ]);
    expect(attempts[1]).toMatchObject({ status_code: 500, next_attempt_at: expect.any(String) });
    const webhooks = (await call(url, "GET", "/webhooks")).body.items;
    expect(
      webhooks.some((w: { last_failure_reason?: string }) =>
        w.last_failure_reason?.includes("HTTP 500"),
      ),
    ).toBe(true);
    const again = await call(url, "POST", `/_sandbox/events/${first?.body.id}/redeliver`);
    expect(again.body).toMatchObject({ id: first?.body.id, attempt: 4, delivered: true });
    expect(receiver.deliveries).toHaveLength(4);
  });
});

describe("the clock", () => {
  it("starts at real time, moves forward only, and refuses what is not a forward move", async () => {
    const sandbox = await startSandbox();
    cleanups.push(() => sandbox.stop());
    const before = (await call(sandbox.url, "GET", "/_sandbox/clock")).body;
    expect(Math.abs(Date.parse(before.now) - Date.now())).toBeLessThan(60_000);
    const moved = await advance(sandbox.url, 86_400);
    expect(Date.parse(moved.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(86_400_000);
    const to = new Date(Date.parse(moved.now) + 3_600_000).toISOString();
    const reached = await call(sandbox.url, "POST", "/_sandbox/clock/advance", { body: { to } });
    expect(Date.parse(reached.body.now)).toBeGreaterThanOrEqual(Date.parse(to));
    for (const [body, field, rule] of [
      [{ seconds: -1 }, "seconds", "minimum"],
      [{ seconds: "60" }, "seconds", "type"],
      [{ to: before.now }, "to", "minimum"],
      [{ to: "tomorrow" }, "to", "format"],
      // Taken by the format's check, but no time: an offset is at most 23:59.
      [{ to: "2099-01-01T00:00:00+24:00" }, "to", "format"],
      [{ seconds: 1, to }, "seconds", "oneOf"],
      [{}, "seconds", "oneOf"],
    ] as const) {
      const refused = await call(sandbox.url, "POST", "/_sandbox/clock/advance", { body });
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.errors[0]).toMatchObject({ field, rule });
    }
    // Neither or both of the alternatives: each is named, and what to send is said.
    for (const [body, words] of [
      [{}, "send exactly one of seconds or to; the body has neither"],
      [{ seconds: 1, to }, "send only one of seconds or to, not both"],
    ] as const) {
      const refused = await call(sandbox.url, "POST", "/_sandbox/clock/advance", { body });
      expect(refused.body.errors).toEqual(
        ["seconds", "to"].map((field) => ({
          location: "body",
          field,
          rule: "oneOf",
          message: words,
        })),
      );
    }
    // What the format takes and Date.parse does not read: a leap second, an offset of hours alone.
    const year = new Date(Date.parse(reached.body.now)).getUTCFullYear();
    const leap = await call(sandbox.url, "POST", "/_sandbox/clock/advance", {
      body: { to: `${year}-12-31T23:59:60Z` },
    });
    expect(leap.status, JSON.stringify(leap.body)).toBe(200);
    // The clock runs on from there (real time): it reached the time, and not a minute past it.
    const reachedAt = (answer: { body: { now: string } }, time: string) =>
      Date.parse(answer.body.now) - Date.parse(time);
    expect(reachedAt(leap, `${year + 1}-01-01T00:00:00Z`)).toBeGreaterThanOrEqual(0);
    expect(reachedAt(leap, `${year + 1}-01-01T00:00:00Z`)).toBeLessThan(60_000);
    const hours = await call(sandbox.url, "POST", "/_sandbox/clock/advance", {
      body: { to: `${year + 1}-01-01T06:00:00+05` },
    });
    expect(hours.status, JSON.stringify(hours.body)).toBe(200);
    expect(reachedAt(hours, `${year + 1}-01-01T01:00:00Z`)).toBeGreaterThanOrEqual(0);
    expect(reachedAt(hours, `${year + 1}-01-01T01:00:00Z`)).toBeLessThan(60_000);
    // Creates carry sandbox time.
    const customer = await post(sandbox.url, "/customers", {
      customer_type: "Person",
      email: "later@example.com",
    });
    expect(Date.parse(customer.created_at)).toBeGreaterThanOrEqual(Date.parse(to));
  });
});

describe("simulation routes refuse what they cannot take", () => {
  it.each([
    ["/_sandbox/webhooks", { url: "ftp://x", topics: ["Nope"] }, ["url", "topics.0"]],
    ["/_sandbox/webhooks", { topics: [] }, ["url"]],
    ["/_sandbox/webhooks", { url: "http://x.example", topics: [], id: "x" }, ["id"]],
    [
      "/_sandbox/customers/3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f/fiat-addresses",
      { iban: "not an iban" },
      ["iban"],
    ],
    [
      "/_sandbox/customers/3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f/fiat-addresses",
      { iban: "DE89370400440532013000", outcome: "Lost" },
      ["outcome"],
    ],
    [
      "/_sandbox/autoramps/d2a6f8c1-4b9e-4d7a-a3c5-8e1f6b2d9c47/deposits",
      { amount: "-5" },
      ["amount"],
    ],
    [
      "/_sandbox/autoramps/d2a6f8c1-4b9e-4d7a-a3c5-8e1f6b2d9c47/deposits",
      { amount: "5", currency: "JPY" },
      ["currency"],
    ],
    [
      "/_sandbox/autoramps/d2a6f8c1-4b9e-4d7a-a3c5-8e1f6b2d9c47/deposits",
      { amount: "5", currency: "EUR", source_currency: "EUR" },
      ["currency", "source_currency"],
    ],
    [
      "/_sandbox/autoramps/d2a6f8c1-4b9e-4d7a-a3c5-8e1f6b2d9c47/deposits",
      { amount: "5", outcome: "Lost" },
      ["outcome"],
    ],
    [
      "/_sandbox/autoramp-transactions/1a5e9c3d-7f2b-4c6e-8a1d-5b9f3e7c2a64/status",
      { status: "Lost" },
      ["status"],
    ],
  ])("POST %s %j: 422 naming %j", async (path, body, fields) => {
    const sandbox = await startSandbox();
    cleanups.push(() => sandbox.stop());
    const refused = await call(sandbox.url, "POST", path, { body });
    expect(refused.status).toBe(422);
    expect(refused.contentType).toBe("application/json");
    expect(refused.body.errors.map((error: { field: string }) => error.field)).toEqual(fields);
  });
});
