// The readiness report, driven as a partner's integration would be: under key A a 503 is
// rehearsed and recovered with the same IDEMPOTENCY-KEY, a customer is onboarded to Active, an
// onramp is funded and settles over a day, a receiver acknowledges every topic but
// TransactionStatus, and no quote is asked for. A's report shows exactly that, is not
// ready and names TransactionStatus; key B's report is untouched. (The mock's tests print it with
// its CLI: packages/mock/test/readiness-report.test.ts.)
import { callAs, driveIntegration, readinessOf, type startReceiver } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxPartner } from "../../src/index.js";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

let sandbox: HttpSandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let a: SandboxPartner;
let b: SandboxPartner;
let fault: { id: string };
const as = callAs;
const readiness = readinessOf;

beforeAll(async () => {
  sandbox = await startSandbox();
  a = sandbox.server.newPartner();
  b = sandbox.server.newPartner();
  ({ fault, receiver } = await driveIntegration(a));
});

afterAll(async () => {
  await sandbox?.stop();
  await receiver?.stop();
});

describe("GET /_sandbox/readiness", () => {
  it("shows A's operations and statuses, every operation listed", async () => {
    const report = await readiness(a);
    const { operations } = report.coverage;
    expect(operations.createCustomer).toEqual({
      calls: 3,
      statuses: { "200": 1, "422": 1, "503": 1 },
    });
    expect(operations.createSigning.calls).toBeGreaterThan(0);
    expect(operations.createDirectIdentification).toEqual({ calls: 1, statuses: { "200": 1 } });
    expect(operations.createLinkIdentification).toEqual({ calls: 1, statuses: { "200": 1 } });
    expect(operations.getAutorampQuote).toEqual({ calls: 0, statuses: {} });
    expect(Object.keys(operations)).toHaveLength(23);
  });

  it("shows the topics delivered and acknowledged, and TransactionStatus failing", async () => {
    const { topics } = (await readiness(a)).coverage;
    for (const topic of [
      "CustomerCreated",
      "CustomerStatus",
      "IdentificationStatus",
      "Transaction",
    ]) {
      expect(topics[topic].subscribed).toBe(true);
      expect(topics[topic].delivered).toBeGreaterThan(0);
      expect(topics[topic].acknowledged).toBe(topics[topic].delivered);
    }
    expect(topics.TransactionStatus.delivered).toBeGreaterThan(0);
    expect(topics.TransactionStatus.acknowledged).toBe(0);
    expect(topics.TransactionStatus.failing).toBeGreaterThan(0);
  });

  it("shows the 503 rehearsed and recovered with the same key", async () => {
    const { faults } = (await readiness(a)).coverage;
    expect(faults).toEqual([
      {
        fault_id: fault.id,
        operation_id: "createCustomer",
        kind: "status",
        status: 503,
        recovered: true,
      },
    ]);
  });

  it("shows the states A's resources reached", async () => {
    const { states } = (await readiness(a)).coverage;
    expect(states.customer).toEqual(
      expect.arrayContaining(["SigningsRequired", "IdentificationRequired", "Active"]),
    );
    expect(states.identification).toEqual(expect.arrayContaining(["Pending", "Approved"]));
    expect(states.autoramp).toContain("Approved");
    expect(states.autoramp_transaction).toEqual(
      expect.arrayContaining(["FundsReceived", "Completed"]),
    );
    expect(states.fiat_address).toEqual([]);
  });

  it("is not ready, with each check decided and a failing one naming TransactionStatus", async () => {
    const report = await readiness(a);
    expect(report.ready).toBe(false);
    expect(report.profile).toEqual({ name: "go-live", version: "1.0.0" });
    const byId = Object.fromEntries(
      report.checks.map((check: { id: string }) => [check.id, check]),
    );
    expect(byId["person-active"].status).toBe("passed");
    expect(byId["recovers-5xx"]).toMatchObject({ status: "passed" });
    expect(byId["recovers-5xx"].detail).toContain(fault.id);
    expect(byId["recovers-429"].status).toBe("not_run");
    expect(byId["recovers-lost-answer"].status).toBe("not_run");
    expect(byId["business-active"]).toMatchObject({ status: "not_run" });
    expect(byId["onramp-completed"].status).toBe("passed");
    expect(byId["offramp-completed"].status).toBe("not_run");
    expect(byId.identifications.status).toBe("passed");
    expect(byId["documents-signed"].status).toBe("passed");
    expect(byId.quote).toMatchObject({
      status: "not_run",
      detail: "getAutorampQuote was never called.",
    });
    expect(byId["webhooks-acknowledged"].status).toBe("failed");
    expect(byId["webhooks-acknowledged"].detail).toContain("TransactionStatus");
    expect(byId["idempotency-keys"].status).toBe("failed");
    expect(byId["idempotency-keys"].detail).toContain("createCustomer (1)");
    expect(byId.pagination.status).toBe("failed");
    expect(byId.pagination.detail).toContain("listCustomers");
    for (const check of report.checks) expect(check.how.length).toBeGreaterThan(0);
  });

  it("leaves key B's report untouched, and names no key", async () => {
    const report = await readiness(b);
    expect(report.partner_id).not.toBe((await readiness(a)).partner_id);
    expect(report.ready).toBe(false);
    expect(report.checks.map((check: { status: string }) => check.status)).toEqual(
      report.checks.map(() => "not_run"),
    );
    const calls = Object.entries(report.coverage.operations).filter(
      ([, operation]) => (operation as { calls: number }).calls > 0,
    );
    expect(calls).toEqual([]);
    for (const topic of Object.values(report.coverage.topics)) {
      expect(topic).toMatchObject({ subscribed: false, delivered: 0, acknowledged: 0, failing: 0 });
    }
    expect(Object.values(report.coverage.states).flat()).toEqual([]);
    const text = JSON.stringify([report, await readiness(a)]);
    expect(text).not.toContain(a.apiKey);
    expect(text).not.toContain(b.apiKey);
  });

  it("makes no partner of a key whose only request was refused", async () => {
    const stranger = sandbox.server.newPartner();
    expect(
      (await as(stranger, "POST", "/customers", { customer_type: "Person" }, null)).status,
    ).toBe(422);
    const report = await readiness(stranger);
    expect(report.coverage.operations.createCustomer.calls).toBe(0);
  });

  it("passes offramp-completed for an offramp funded and Completed, and only that ramp", async () => {
    const c = sandbox.server.newPartner();
    const customer = (
      await as(c, "POST", "/customers", {
        customer_type: "Person",
        email: "ada@example.com",
        name: "Ada Lovelace",
      })
    ).body;
    await as(c, "POST", `/_sandbox/customers/${customer.id}/status`, {
      status: "Active",
      force: true,
    });
    // Crypto in, EUR out: the fiat destination named by its code, as a quote names it.
    const offramp = (
      await as(c, "POST", "/autoramps", {
        customer_id: customer.id,
        source_currencies: [{ blockchain: "Polygon", token: "USDC" }],
        destination_currency: { token: "EUR" },
        recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
      })
    ).body;
    const deposited = await as(c, "POST", `/_sandbox/autoramps/${offramp.id}/deposits`, {
      amount: "100.00",
    });
    expect(deposited.status).toBe(200);
    const before = await readiness(c);
    expect(
      before.checks.find((check: { id: string }) => check.id === "offramp-completed"),
    ).toMatchObject({
      status: "failed",
    });
    await as(c, "POST", "/_sandbox/clock/advance", { seconds: 24 * 3600 });
    const report = await readiness(c);
    const byId = Object.fromEntries(
      report.checks.map((check: { id: string }) => [check.id, check]),
    );
    expect(byId["offramp-completed"].status).toBe("passed");
    expect(byId["onramp-completed"].status).toBe("not_run");
    expect(report.coverage.states.autoramp_transaction).toContain("Completed");
  });

  it("counts each request once: a report read twice is the same", async () => {
    const first = await readiness(a);
    const second = await readiness(a);
    expect(second).toEqual(first);
  });
});
