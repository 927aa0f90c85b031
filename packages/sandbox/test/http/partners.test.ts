// A partner per API key, tried as a hostile tenant would: keys A and B share one sandbox, and
// nothing of A's (data, partner_id, clock, webhook deliveries, event log, idempotency keys, reset)
// reaches B, in an answer, an error, a log line or the cursors of B's request log and delivery
// attempts. 20 keys onboarding at once each end with their own customers Active, and a new key
// starts with the documents and fee profiles only.
import { call, openEventStream, startReceiver } from "@org/payments-testing";
import { afterEach, describe, expect, it } from "vitest";
import { partnerIdOf, type SandboxPartner } from "../../src/index.js";
import { type HttpSandbox, quotePath, startSandbox } from "../support/sandbox.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A sandbox whose log lines the test reads. */
async function sandbox(): Promise<{ sandbox: HttpSandbox; lines: string[] }> {
  const lines: string[] = [];
  const started = await startSandbox({ log: (line) => lines.push(line) });
  cleanups.push(() => started.stop());
  return { sandbox: started, lines };
}

/** A call under the partner's key (a POST with a new IDEMPOTENCY-KEY unless it names one). */
const as = (
  partner: SandboxPartner,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) =>
  call(partner.url, method, path, {
    ...options,
    headers: {
      "X-API-Key": partner.apiKey,
      ...(method === "POST" && { "IDEMPOTENCY-KEY": crypto.randomUUID() }),
      ...options.headers,
    },
  });

async function createCustomer(partner: SandboxPartner, email: string, key?: string) {
  const answer = await as(partner, "POST", "/customers", {
    body: { customer_type: "Person", email, name: email },
    ...(key !== undefined && { headers: { "IDEMPOTENCY-KEY": key } }),
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** A customer signs every document and starts a direct identification; a clock hour makes it Active. */
async function startOnboarding(partner: SandboxPartner, email: string) {
  const customer = await createCustomer(partner, email);
  const unsigned = await as(partner, "GET", `/customers/${customer.id}/unsigned-documents`);
  for (const document of unsigned.body.items) {
    const signed = await as(partner, "POST", `/customers/${customer.id}/signings`, {
      body: { document_id: document.id, signed: true },
    });
    expect(signed.status).toBe(200);
  }
  const identification = await as(partner, "POST", `/customers/${customer.id}/identifications`, {
    body: { type: "Direct" },
  });
  expect(identification.status).toBe(200);
  return customer;
}

const customersOf = async (partner: SandboxPartner) =>
  (await as(partner, "GET", "/customers?page_size=100")).body.items;

describe("a partner per API key", () => {
  it("keeps A's customers, partner_id and error details from B", async () => {
    const { sandbox: started } = await sandbox();
    const a = started.server.newPartner();
    const b = started.server.newPartner();
    const ofA = await createCustomer(a, "a@example.com");
    const ofB = await createCustomer(b, "b@example.com");
    expect(ofA.partner_id).toBe(partnerIdOf(a.apiKey));
    expect(ofB.partner_id).toBe(partnerIdOf(b.apiKey));
    expect(ofA.partner_id).not.toBe(ofB.partner_id);
    expect((await customersOf(b)).map((c: { id: string }) => c.id)).toEqual([ofB.id]);
    expect((await customersOf(a)).map((c: { id: string }) => c.id)).toEqual([ofA.id]);
    // B names A's customer everywhere it can: it does not exist for B, and no answer says more.
    const probes = [
      await as(b, "GET", `/customers?search_term=${ofA.id}`),
      await as(b, "GET", `/customers/${ofA.id}/unsigned-documents`),
      await as(b, "POST", `/customers/${ofA.id}/identifications`, { body: { type: "Direct" } }),
      await as(b, "POST", `/_sandbox/customers/${ofA.id}/status`, { body: { status: "Active" } }),
      await as(b, "POST", "/autoramps", {
        body: {
          customer_id: ofA.id,
          destination_currency: { blockchain: "Polygon", token: "USDC" },
          recipient_account: {
            type: "Fiat",
            account_identifier: { iban: "DE89370400440532013000" },
          },
          source_currencies: [{ code: "EUR", type: "Fiat" }],
        },
      }),
    ];
    expect(probes[0]?.body.items).toEqual([]);
    for (const probe of probes.slice(1)) {
      expect(probe.status).toBe(404);
      const text = JSON.stringify(probe.body);
      expect(text).not.toContain(a.apiKey);
      expect(text).not.toContain(ofA.partner_id);
      expect(text).not.toContain("a@example.com");
    }
    expect(await customersOf(a)).toMatchObject([{ id: ofA.id, status: ofA.status }]);
  });

  it("gives a partner the same partner_id in every sandbox and never stores or logs its key", async () => {
    const { sandbox: first, lines } = await sandbox();
    const { sandbox: second } = await sandbox();
    const a = first.server.newPartner();
    const same = { ...a, url: second.url };
    const made = await createCustomer(a, "a@example.com");
    expect((await createCustomer(same, "again@example.com")).partner_id).toBe(made.partner_id);
    expect(made.partner_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-/);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.includes(a.apiKey))).toEqual([]);
  });

  it("moves only the advancing key's clock and runs only its work", async () => {
    const { sandbox: started } = await sandbox();
    const a = started.server.newPartner();
    const b = started.server.newPartner();
    const ofA = await startOnboarding(a, "a@example.com");
    const ofB = await startOnboarding(b, "b@example.com");
    const moved = await a.advanceClock({ seconds: 86_400 });
    expect(moved.ahead_by_seconds).toBeGreaterThan(86_000);
    expect(moved.ran).toBeGreaterThan(0);
    expect((await b.clock()).ahead_by_seconds).toBe(0);
    expect(await customersOf(a)).toMatchObject([{ id: ofA.id, status: "Active" }]);
    const [customerOfB] = await customersOf(b);
    expect(customerOfB.id).toBe(ofB.id);
    expect(customerOfB.status).not.toBe("Active");
    // B's own advance runs B's work, and A's clock stays where A put it.
    await b.advanceClock({ seconds: 3_600 });
    expect(await customersOf(b)).toMatchObject([{ id: ofB.id, status: "Active" }]);
    expect((await a.clock()).ahead_by_seconds).toBe(moved.ahead_by_seconds);
  });

  it("sends A's events to A's webhook only, and logs them in A's event log only", async () => {
    const { sandbox: started } = await sandbox();
    const a = started.server.newPartner();
    const b = started.server.newPartner();
    const hookA = await startReceiver();
    cleanups.push(() => hookA.stop());
    const hookB = await startReceiver();
    cleanups.push(() => hookB.stop());
    await a.addWebhook({ url: `${hookA.url}/a`, topics: ["CustomerCreated"] });
    await b.addWebhook({ url: `${hookB.url}/b`, topics: ["CustomerCreated"] });
    const ofA = await createCustomer(a, "a@example.com");
    await hookA.waitFor(1);
    const ofB = await createCustomer(b, "b@example.com");
    await hookB.waitFor(1);
    await expect.poll(async () => (await a.events()).length).toBe(1);
    await expect.poll(async () => (await b.events()).length).toBe(1);
    expect(hookA.deliveries.map((d) => d.body.customer_id)).toEqual([ofA.id]);
    expect(hookB.deliveries.map((d) => d.body.customer_id)).toEqual([ofB.id]);
    const [eventOfA] = await a.events();
    expect((await b.events()).map((event) => event.payload.customer_id)).toEqual([ofB.id]);
    // B cannot redeliver A's event, nor list A's webhook.
    const redeliver = await as(b, "POST", `/_sandbox/events/${eventOfA?.id}/redeliver`);
    expect(redeliver.status).toBe(404);
    expect(JSON.stringify(redeliver.body)).not.toContain(hookA.url);
    const webhooksOfB = (await as(b, "GET", "/webhooks")).body.items;
    expect(webhooksOfB.map((w: { url: string }) => w.url)).toEqual([`${hookB.url}/b`]);
  });

  it("answers the same IDEMPOTENCY-KEY under A and then B as two requests", async () => {
    const { sandbox: started } = await sandbox();
    const a = started.server.newPartner();
    const b = started.server.newPartner();
    const key = crypto.randomUUID();
    const ofA = await createCustomer(a, "same@example.com", key);
    const ofB = await createCustomer(b, "same@example.com", key);
    expect(ofB.id).not.toBe(ofA.id);
    // Each replays its own answer; a different body under B's key is B's own conflict.
    expect((await createCustomer(a, "same@example.com", key)).id).toBe(ofA.id);
    expect((await createCustomer(b, "same@example.com", key)).id).toBe(ofB.id);
    const reused = await as(b, "POST", "/customers", {
      body: { customer_type: "Person", email: "other@example.com" },
      headers: { "IDEMPOTENCY-KEY": key },
    });
    expect(reused.status).toBe(422);
    expect(JSON.stringify(reused.body)).not.toContain(a.apiKey);
  });

  it("numbers B's request log the same whatever A requested meanwhile", async () => {
    const { sandbox: started } = await sandbox();
    const a = started.server.newPartner();
    const b = started.server.newPartner();
    const alone = started.server.newPartner();
    const idsOfLog = async (partner: SandboxPartner) =>
      (await as(partner, "GET", "/_sandbox/requests")).body.items.map((e: { id: string }) => e.id);
    await createCustomer(b, "b@example.com");
    for (const n of [1, 2, 3]) await createCustomer(a, `a${n}@example.com`);
    await createCustomer(b, "b2@example.com");
    await createCustomer(alone, "alone@example.com");
    await createCustomer(alone, "alone2@example.com");
    // A store-wide number would let B count A's requests between its own.
    expect(await idsOfLog(b)).toEqual(await idsOfLog(alone));
  });

  it("pages B's delivery attempts by B's own attempt ids, which count nothing of A's", async () => {
    const { sandbox: started } = await sandbox();
    const a = started.server.newPartner();
    const b = started.server.newPartner();
    const hook = await startReceiver();
    cleanups.push(() => hook.stop());
    await a.addWebhook({ url: `${hook.url}/a`, topics: ["CustomerCreated"] });
    await b.addWebhook({ url: `${hook.url}/b`, topics: ["CustomerCreated"] });
    await createCustomer(b, "b@example.com");
    for (const n of [1, 2, 3]) await createCustomer(a, `a${n}@example.com`);
    await createCustomer(b, "b2@example.com");
    await hook.waitFor(5);
    const attemptsOf = async (partner: SandboxPartner, query = "") =>
      (await as(partner, "GET", `/_sandbox/events?page_size=1${query}`)).body;
    await expect.poll(async () => (await a.events()).length).toBe(3);
    await expect.poll(async () => (await b.events()).length).toBe(2);
    const [older, newer] = (await b.events()).reverse();
    const first = await attemptsOf(b);
    expect(first.items.map((x: { attempt_id: string }) => x.attempt_id)).toEqual([
      newer?.attempt_id,
    ]);
    // A store-wide number as the cursor would let B count A's deliveries between its own.
    expect(first.cursor).toBe(older?.attempt_id);
    const second = await attemptsOf(b, `&cursor=${first.cursor}`);
    expect(second.items.map((x: { attempt_id: string }) => x.attempt_id)).toEqual([
      older?.attempt_id,
    ]);
    const [ofA] = await a.events();
    expect((await as(b, "GET", `/_sandbox/events?cursor=${ofA?.attempt_id}`)).status).toBe(400);
  });

  it("answers B on each of A's ids exactly as on an id that exists nowhere, and changes nothing of A's", async () => {
    const { sandbox: started } = await sandbox();
    const a = started.server.newPartner();
    const b = started.server.newPartner();
    const hook = await startReceiver();
    cleanups.push(() => hook.stop());
    const webhook = await a.addWebhook({ url: `${hook.url}/a`, topics: ["CustomerCreated"] });
    const customer = await startOnboarding(a, "a@example.com");
    await a.advanceClock({ seconds: 86_400 });
    const autoramp = await as(a, "POST", "/autoramps", {
      body: {
        customer_id: customer.id,
        external_id: "ramp-of-a",
        destination_currency: { blockchain: "Polygon", token: "USDC" },
        recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
        source_currencies: [{ code: "EUR", type: "Fiat" }],
      },
    });
    const deposit = await as(a, "POST", `/_sandbox/autoramps/${autoramp.body.id}/deposits`, {
      body: { amount: "1000.00" },
    });
    const address = await as(a, "POST", `/_sandbox/customers/${customer.id}/fiat-addresses`, {
      body: { iban: "DE89370400440532013000" },
    });
    expect([autoramp.status, deposit.status, address.status]).toEqual([200, 200, 200]);
    const fault = await a.armFault({ operation_id: "listDocuments", status: 503 });
    await hook.waitFor(1);
    await expect.poll(async () => (await a.events()).length).toBe(1);
    const [attempt] = await a.events();
    const [logged] = (await as(a, "GET", "/_sandbox/events/log")).body.items;
    const ofA: Record<string, string> = {
      customer: customer.id,
      identification: (await customersOf(a))[0].identification_ids[0],
      autoramp: autoramp.body.id,
      external: "ramp-of-a",
      transaction: deposit.body.id,
      address: address.body.id,
      webhook: webhook.id,
      fault: fault.id,
      event: attempt?.id ?? "",
      attempt: attempt?.attempt_id ?? "",
      cursor: logged.cursor,
    };
    // Ids that exist under no key, of the same shapes.
    const nowhere = Object.fromEntries(
      Object.keys(ofA).map((name) => [
        name,
        name === "external" ? "ramp-of-nobody" : name === "cursor" ? "999" : crypto.randomUUID(),
      ]),
    );
    const probes: Array<(id: Record<string, string>) => ReturnType<typeof as>> = [
      (id) => as(b, "GET", `/customers?cursor=${id.customer}`),
      (id) => as(b, "GET", `/customers/${id.customer}/signings`),
      (id) => as(b, "GET", `/autoramps/${id.external}/external`),
      (id) => as(b, "GET", `/autoramp-transactions?customer_id=${id.customer}`),
      (id) => as(b, "GET", `/autoramp-transactions?cursor=${id.transaction}`),
      (id) => as(b, "GET", `/autoramp-transactions/ids?ids=${id.transaction}`),
      (id) => as(b, "GET", `/addresses/fiat/${id.customer}/${id.address}`),
      (id) => as(b, "PATCH", `/webhooks/${id.webhook}`, { body: { label: "taken" } }),
      (id) => as(b, "POST", `/webhooks/${id.webhook}/ping`, { body: { customer_id: id.customer } }),
      (id) =>
        as(b, "POST", `/_sandbox/identifications/${id.identification}/status`, {
          body: { status: "Declined" },
        }),
      (id) =>
        as(b, "POST", `/_sandbox/autoramps/${id.autoramp}/status`, { body: { status: "Closed" } }),
      (id) =>
        as(b, "POST", `/_sandbox/addresses/fiat/${id.address}/status`, {
          body: { status: "Registered" },
        }),
      (id) =>
        as(b, "POST", `/_sandbox/autoramp-transactions/${id.transaction}/status`, {
          body: { status: "Completed" },
        }),
      (id) =>
        as(b, "POST", `/_sandbox/autoramps/${id.autoramp}/deposits`, { body: { amount: "5.00" } }),
      (id) =>
        as(b, "POST", `/_sandbox/customers/${id.customer}/fiat-addresses`, {
          body: { iban: "DE89370400440532013000" },
        }),
      (id) => as(b, "GET", `/_sandbox/events?id=${id.event}&webhook_id=${id.webhook}`),
      (id) => as(b, "GET", `/_sandbox/events?cursor=${id.attempt}`),
      (id) => as(b, "GET", `/_sandbox/events/log?customer_id=${id.customer}`),
      (id) => as(b, "GET", `/_sandbox/events/log?cursor=${id.cursor}`),
      (id) => as(b, "POST", `/_sandbox/events/${id.event}/redeliver`),
      (id) =>
        as(b, "POST", "/_sandbox/events/receipts", {
          body: { receipts: [{ id: id.event, cursor: id.cursor, status_code: 204 }] },
        }),
      (id) => as(b, "DELETE", `/_sandbox/faults/${id.fault}`),
      (id) => as(b, "GET", `/_sandbox/requests?fault_id=${id.fault}`),
    ];
    /** The answer, each id named by its name: what tells A's ids from no one's. */
    const seen = (answer: { status: number; body: unknown }, ids: Record<string, string>) => {
      let text = JSON.stringify(answer.body);
      for (const [name, id] of Object.entries(ids)) text = text.split(id).join(`<${name}>`);
      return `${answer.status} ${text}`;
    };
    for (const probe of probes) {
      const onA = seen(await probe(ofA), ofA);
      expect(onA).toBe(seen(await probe(nowhere), nowhere));
      expect(onA).not.toContain(a.apiKey);
      expect(onA).not.toContain(customer.partner_id);
    }
    // Nothing of A's changed: its webhook, its rule, its resources, its one attempt.
    expect((await as(a, "GET", "/webhooks")).body.items).toMatchObject([{ label: "" }]);
    expect(await a.faults()).toMatchObject([{ id: fault.id, remains: 1 }]);
    expect(await customersOf(a)).toMatchObject([{ id: customer.id, status: "Active" }]);
    const ramp = await as(a, "GET", "/autoramps/ramp-of-a/external");
    expect(ramp.body.status).toBe(autoramp.body.status);
    const transactions = await as(a, "GET", `/autoramp-transactions?customer_id=${customer.id}`);
    expect(transactions.body.items).toMatchObject([{ id: deposit.body.id }]);
    expect(await a.events()).toHaveLength(1);
  });

  it("keeps B's rates, quote signing key and event stream cursors B's own", async () => {
    const { sandbox: started } = await sandbox();
    const a = started.server.newPartner();
    const b = started.server.newPartner();
    const before = await a.rates();
    await b.setRates({ EUR: "2.5" });
    expect(await a.rates()).toEqual(before);
    const customer = await createCustomer(a, "a@example.com");
    const quote = await as(a, "GET", quotePath({ customer_id: customer.id }));
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(await a.verifyQuote(quote.body)).toMatchObject({ valid: true });
    expect(await b.verifyQuote(quote.body)).toEqual({ valid: false });
    const keyOf = async (partner: SandboxPartner) =>
      (await as(partner, "GET", "/_sandbox/quotes/signing-key")).body.key;
    expect(await keyOf(b)).not.toBe(await keyOf(a));
    // B resumes its stream from A's newest cursor (past B's own newest): B's events only.
    for (const n of [1, 2, 3]) await createCustomer(a, `a${n}@example.com`);
    const [newestOfA] = (await as(a, "GET", "/_sandbox/events/log?page_size=1")).body.items;
    const ofB = await createCustomer(b, "b@example.com");
    const stream = await openEventStream(b.url, {
      apiKey: b.apiKey,
      lastEventId: newestOfA.cursor,
    });
    cleanups.push(() => stream.close());
    await stream.waitForEvents(1);
    const again = await createCustomer(b, "b2@example.com");
    await stream.waitForEvents(2);
    const streamed = stream.events.map((event) => JSON.parse(event.data).customer_id);
    expect(streamed).toEqual([ofB.id, again.id]);
    expect(stream.events.map((event) => event.id)).toEqual(["1", "2"]);
  });

  it("resets the caller's partner only, back to what a new key starts with", async () => {
    const { sandbox: started } = await sandbox();
    const a = started.server.newPartner();
    const b = started.server.newPartner();
    const ofA = await createCustomer(a, "a@example.com");
    await createCustomer(b, "b@example.com");
    await b.reset();
    expect(await customersOf(b)).toEqual([]);
    expect((await customersOf(a)).map((c: { id: string }) => c.id)).toEqual([ofA.id]);
    // What a new key starts with: the documents to sign and the fee profiles, no customers. The
    // fee profiles are the key's own: they name its partner, not the example key's.
    for (const partner of [b, started.server.newPartner()]) {
      expect((await as(partner, "GET", "/documents")).body.items.length).toBeGreaterThan(0);
      const profiles = (await as(partner, "GET", "/fee-profiles")).body.items;
      expect(profiles.length).toBeGreaterThan(0);
      expect(new Set(profiles.map((p: { partner_id: string }) => p.partner_id))).toEqual(
        new Set([partnerIdOf(partner.apiKey)]),
      );
      expect(await as(partner, "GET", "/webhooks")).toMatchObject({ body: { items: [] } });
    }
    // The example key keeps the whole seed.
    expect((await call(started.url, "GET", "/customers")).body.items.length).toBeGreaterThan(0);
  });

  it("onboards 20 keys at once, each ending with exactly its own customers Active", async () => {
    const { sandbox: started } = await sandbox();
    const partners = Array.from({ length: 20 }, () => started.server.newPartner());
    const results = await Promise.all(
      partners.map(async (partner, index) => {
        const made = [
          await startOnboarding(partner, `first-${index}@example.com`),
          await startOnboarding(partner, `second-${index}@example.com`),
        ];
        await partner.advanceClock({ seconds: 86_400 });
        return { made, listed: await customersOf(partner) };
      }),
    );
    for (const { made, listed } of results) {
      expect(listed.map((c: { id: string }) => c.id)).toEqual(made.map((c) => c.id));
      expect(listed.map((c: { status: string }) => c.status)).toEqual(["Active", "Active"]);
    }
  });
});
