// The readiness report, driven as a partner's integration would be: under key A a 503 is
// rehearsed and recovered with the same IDEMPOTENCY-KEY, a customer is onboarded to Active, an
// onramp is funded and settles over a day, a receiver acknowledges every topic but
// TransactionStatus, and no quote is asked for. A's report shows exactly that, is not
// ready and names TransactionStatus; key B's report is untouched; the CLI prints it as JSON and
// JUnit with exit code 1 (not ready), from the running sandbox and from its store.
import { startReceiver } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxPartner } from "../../src/index.js";
import { runCli } from "../support/run-cli.js";
import { call, sandboxStore, startSandbox, type TestSandbox } from "../support/sandbox.js";

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

let sandbox: TestSandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let a: SandboxPartner;
let b: SandboxPartner;
let fault: { id: string };

/** A call under the partner's key; a POST with a new IDEMPOTENCY-KEY unless `key` says otherwise. */
const as = (
  partner: SandboxPartner,
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

const readiness = async (partner: SandboxPartner) => {
  const answer = await as(partner, "GET", "/_sandbox/readiness");
  expect(answer.status).toBe(200);
  return answer.body;
};

beforeAll(async () => {
  sandbox = await startSandbox();
  // Every topic acknowledged but TransactionStatus, which always fails.
  // (The receiver records a delivery just before it answers it: the last one is this one.)
  receiver = await startReceiver((_, response) => {
    const topic = receiver.deliveries.at(-1)?.body?.topic;
    response.writeHead(topic === "TransactionStatus" ? 500 : 204).end();
  });
  a = sandbox.mock.newPartner();
  b = sandbox.mock.newPartner();
  await ok(as(a, "POST", "/_sandbox/webhooks", { url: `${receiver.url}/a`, topics: TOPICS }));
  // A 503 rehearsed on the create, and recovered: the same IDEMPOTENCY-KEY again, answered 2xx.
  fault = await ok(
    as(a, "POST", "/_sandbox/faults", { operation_id: "createCustomer", status: 503 }),
  );
  const ada = { customer_type: "Person", email: "ada@example.com", name: "Ada Lovelace" };
  const key = crypto.randomUUID();
  expect((await as(a, "POST", "/customers", ada, key)).status).toBe(503);
  // Onboarded to Active: every document signed, a Direct identification approved an hour later.
  const customer = await ok(as(a, "POST", "/customers", ada, key));
  const unsigned = await ok(as(a, "GET", `/customers/${customer.id}/unsigned-documents`));
  for (const document of unsigned.items) {
    await ok(
      as(a, "POST", `/customers/${customer.id}/signings`, {
        document_id: document.id,
        signed: true,
      }),
    );
  }
  await ok(as(a, "POST", `/customers/${customer.id}/identifications`, { type: "Direct" }));
  await ok(as(a, "POST", "/_sandbox/clock/advance", { seconds: 3600 }));
  // An onramp funded, settled over a day.
  const autoramp = await ok(
    as(a, "POST", "/autoramps", {
      customer_id: customer.id,
      destination_currency: { blockchain: "Polygon", token: "USDC" },
      recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
      source_currencies: [{ code: "EUR", type: "Fiat" }],
    }),
  );
  await ok(as(a, "POST", `/_sandbox/autoramps/${autoramp.id}/deposits`, { amount: "1000.00" }));
  await ok(as(a, "POST", "/_sandbox/clock/advance", { seconds: 24 * 3600 }));
  await ok(as(a, "POST", `/customers/${customer.id}/identifications/v2`, { type: "Link" }));
  // A POST without a key (refused: the API requires one), and a list read at its first page only.
  expect((await as(a, "POST", "/customers", { customer_type: "Person" }, null)).status).toBe(422);
  const first = await ok(as(a, "GET", "/customers?page_size=1"));
  expect(first.cursor).toBeUndefined();
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
    const stranger = sandbox.mock.newPartner();
    expect(
      (await as(stranger, "POST", "/customers", { customer_type: "Person" }, null)).status,
    ).toBe(422);
    const report = await readiness(stranger);
    expect(report.coverage.operations.createCustomer.calls).toBe(0);
  });

  it("counts each request once: a report read twice is the same", async () => {
    const first = await readiness(a);
    const second = await readiness(a);
    expect(second).toEqual(first);
  });
});

describe("payments-mock readiness", () => {
  it("prints A's report as JSON from the running sandbox and exits 1 (not ready)", async (context) => {
    const cli = runCli(context, ["readiness", "--url", sandbox.url, "--format", "json"], {
      PAYMENTS_API_KEY: a.apiKey,
    });
    expect(await cli.exited).toEqual([1, null]);
    const { stdout, stderr } = cli.output();
    expect(JSON.parse(stdout)).toEqual(await readiness(a));
    expect(stdout + stderr).not.toContain(a.apiKey);
  });

  it("prints JUnit with one test case per check, the failing one naming TransactionStatus", async (context) => {
    const cli = runCli(context, ["readiness", "--url", sandbox.url, "--format", "junit"], {
      PAYMENTS_API_KEY: a.apiKey,
    });
    expect(await cli.exited).toEqual([1, null]);
    const { stdout } = cli.output();
    const report = await readiness(a);
    expect(stdout.match(/<testcase /g)).toHaveLength(report.checks.length);
    const webhooks = /<testcase [^>]*name="webhooks-acknowledged[^"]*">([\s\S]*?)<\/testcase>/.exec(
      stdout,
    );
    expect(webhooks?.[1]).toMatch(/<failure [^>]*message="[^"]*TransactionStatus/);
    expect(stdout).toMatch(/<testcase [^>]*name="person-active[^"]*">\s*<system-out>/);
    expect(stdout).toMatch(/<testcase [^>]*name="quote[^"]*">\s*<skipped /);
  });

  it("reads the sandbox's store with --state", async (context) => {
    if (sandbox.state === undefined) {
      // Memory: nothing outlives the process; the store is the running sandbox's, asked by --url.
      expect(sandboxStore).toBe("memory");
      return;
    }
    const cli = runCli(context, ["readiness", "--state", sandbox.state, "--format", "json"], {
      PAYMENTS_API_KEY: a.apiKey,
    });
    expect(await cli.exited).toEqual([1, null]);
    const fromStore = JSON.parse(cli.output().stdout);
    expect(fromStore).toEqual(await readiness(a));
  });

  it("exits 2 without PAYMENTS_API_KEY, with two sources, or an unknown format", async (context) => {
    const runs = [
      runCli(context, ["readiness", "--url", sandbox.url], { PAYMENTS_API_KEY: "" }),
      runCli(context, ["readiness", "--url", sandbox.url, "--state", "x.db"], {
        PAYMENTS_API_KEY: "k",
      }),
      runCli(context, ["readiness", "--url", sandbox.url, "--format", "xml"], {
        PAYMENTS_API_KEY: "k",
      }),
    ];
    const outcomes = await Promise.all(runs.map((run) => run.exited));
    expect(outcomes).toEqual(runs.map(() => [2, null]));
    expect(runs[0]?.output().stderr).toContain("PAYMENTS_API_KEY");
    expect(runs[1]?.output().stderr).toContain("not --state and --url");
    expect(runs[2]?.output().stderr).toContain(
      "--format must be one of text, json, markdown, junit",
    );
  });
});
