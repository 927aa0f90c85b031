// Advancing the sandbox clock over a day of scheduled work, the cost a test pays to fast-forward: customers
// onboarded through the API (documents signed, an autoramp waiting for its customer, a Direct
// identification reviewed on the clock, which makes the customer Active and approves the
// autoramp) and one simulated deposit each, settled on the clock. Six sandboxes: on SQLite files
// without a webhook, 500 customers and transactions, 1,000, and 1,000 with 100,000 more customers
// stored; 1,000 with a webhook on every topic, delivered to a receiver of the bench (another
// process on the same machine); and one process on Postgres, without and with the webhook. The
// wall time of a day's advances is what a test waits; the cost (the sandbox process's CPU time,
// which the machine's other work moves far less than wall time) should grow with the work, twice
// for twice, and not with the stored data.
//
// Sandbox time runs with real time, so work that starts a timed step (an identification, a
// deposit) is sent just before the advance that runs it, and each advance waits until its
// sandbox has delivered what the requests before it sent; the other sandboxes are idle meanwhile.
// The sandboxes take turns, so that the machine's load changes (other processes on its cores) are
// spread over them.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase, startPostgres } from "@org/payments-testing";
import { inParallel } from "./in-parallel.ts";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { seedCustomers } from "./sandbox-store.ts";
import { API_KEY, createAutorampRequest, exampleDocuments } from "./servers/fixtures.ts";
import { type Receiver, startReceiver, webhookOnEveryTopic } from "./servers/receiver.ts";
import { type Peer, startSandbox } from "./servers/stateful-peers.ts";

const WORK = 1_000;
const STORED = 100_000;
/** Requests at a time while a sandbox is set up (untimed). */
const SETUP_CONNECTIONS = 10;
/** The first advance: the identifications' reviews (5 minutes) and the autoramps they approve. */
const REVIEWS_SECONDS = 3_600;
const DAY_SECONDS = 86_400;
/**
 * CPU time of twice the work against twice the half's, and with the data stored against without;
 * a day's wall time on SQLite without a webhook and with one; Postgres against SQLite.
 */
const TARGETS = { work: 1.25, stored: 1.25, sqliteMs: 2_000, webhookMs: 6_000, postgres: 2 };
/** Deliveries have settled when none arrived for this long… */
const QUIET_MS = 1_000;
/** …which must happen within this long. */
const SETTLE_MS = 120_000;

interface Setup {
  label: string;
  work: number;
  stored: number;
  /** Whether the seed has a webhook on every topic, to the bench's receiver. */
  webhook: boolean;
  /** A Postgres database's URL; a SQLite file otherwise. */
  postgres?: string;
  dir: string;
  sandbox?: Peer;
  receiver?: Receiver;
  /** Each onboarded customer's id and its autoramp's. */
  customers: { customer: string; autoramp: string }[];
  advanceMs: number;
  /** The sandbox process's CPU time during the advances. */
  advanceCpuMs: number;
  jobs: number;
}

/** An API or control call; a POST to the API carries a fresh IDEMPOTENCY-KEY. */
export async function call(
  url: string,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<Record<string, unknown> & { id: string; items: { id: string }[] }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      "X-API-Key": API_KEY,
      "content-type": "application/json",
      ...(method === "POST" &&
        !path.startsWith("/_sandbox/") && {
          "IDEMPOTENCY-KEY": crypto.randomUUID(),
        }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
  return JSON.parse(text);
}

/** A customer with its documents signed and an autoramp, which waits for the customer. */
export async function onboard(
  url: string,
  index: number,
): Promise<{ customer: string; autoramp: string }> {
  const customer = await call(url, "POST", "/customers", {
    customer_type: "Person",
    email: `clock${index}@example.com`,
    name: `Clock ${index}`,
  });
  const unsigned = await call(url, "GET", `/customers/${customer.id}/unsigned-documents`);
  for (const document of unsigned.items) {
    await call(url, "POST", `/customers/${customer.id}/signings`, {
      document_id: document.id,
      signed: true,
    });
  }
  const autoramp = await call(url, "POST", "/autoramps", {
    ...createAutorampRequest,
    customer_id: customer.id,
  });
  return { customer: customer.id, autoramp: autoramp.id };
}

/** Moves the sandbox's clock; adds the time it took, its CPU time and the jobs it ran to `setup`. */
async function advance(setup: Setup, seconds: number) {
  progress(`sandbox clock: ${setup.label}, advancing ${seconds.toLocaleString("en-US")} s`);
  const sandbox = setup.sandbox as Peer;
  const cpuBefore = sandbox.cpuMs();
  const started = performance.now();
  const answer = await call(sandbox.url, "POST", "/_sandbox/clock/advance", { seconds });
  setup.advanceMs += performance.now() - started;
  setup.advanceCpuMs += sandbox.cpuMs() - cpuBefore;
  setup.jobs += Number(answer.ran);
}

async function startSetup(setup: Setup) {
  if (setup.webhook) setup.receiver = await startReceiver();
  const seed = join(setup.dir, "seed.json");
  writeFileSync(
    seed,
    JSON.stringify({
      customers: seedCustomers(setup.stored),
      documents: exampleDocuments,
      webhooks: setup.receiver ? [webhookOnEveryTopic(setup.receiver.url)] : [],
    }),
  );
  setup.sandbox = await startSandbox(setup.dir, seed, setup.postgres);
}

/**
 * The receiver's count once none has arrived for QUIET_MS: the sandbox's deliveries are done (at
 * once without a receiver).
 */
async function settledDeliveries(receiver: Receiver | undefined): Promise<number> {
  if (receiver === undefined) return 0;
  const deadline = performance.now() + SETTLE_MS;
  let count = await receiver.deliveries();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    const now = await receiver.deliveries();
    if (now === count) return now;
    if (performance.now() > deadline) {
      throw new Error(`webhook deliveries still arriving after ${SETTLE_MS} ms (${now} so far)`);
    }
    count = now;
  }
}

/**
 * Sends `start(index)` for each of the setup's customers (work that starts timed steps), waits
 * for the sandbox to deliver its events, then advances its clock by `seconds`.
 */
async function startAndAdvance(
  setup: Setup,
  what: string,
  start: (url: string, index: number) => Promise<unknown>,
  seconds: number,
) {
  progress(`sandbox clock: ${setup.label}, ${setup.work} ${what}`);
  const url = setup.sandbox?.url ?? "";
  await inParallel(setup.work, SETUP_CONNECTIONS, (index) => start(url, index));
  await settledDeliveries(setup.receiver);
  await advance(setup, seconds);
  await settledDeliveries(setup.receiver);
}

function describe(setup: Setup, deliveries: number): string {
  const stored = setup.stored === 0 ? "" : `, ${setup.stored.toLocaleString("en-US")} more stored`;
  const received = setup.webhook
    ? `, ${deliveries.toLocaleString("en-US")} webhook deliveries received`
    : "";
  return `${setup.work.toLocaleString("en-US")} customers and transactions${stored} (${setup.jobs.toLocaleString("en-US")} jobs run${received})`;
}

export async function measureSandboxClock(): Promise<Row[]> {
  progress("sandbox clock: starting Postgres");
  const postgres = await startPostgres();
  const setups = [
    { label: "half the work", work: WORK / 2, stored: 0, webhook: false },
    { label: "the work", work: WORK, stored: 0, webhook: false },
    { label: "the work, more stored", work: WORK, stored: STORED, webhook: false },
    { label: "the work, a webhook", work: WORK, stored: 0, webhook: true },
    {
      label: "the work on Postgres",
      work: WORK,
      stored: 0,
      webhook: false,
      postgres: await createDatabase(postgres.url),
    },
    {
      label: "the work on Postgres, a webhook",
      work: WORK,
      stored: 0,
      webhook: true,
      postgres: await createDatabase(postgres.url),
    },
  ].map(
    (setup): Setup => ({
      ...setup,
      dir: mkdtempSync(join(tmpdir(), "bench-sandbox-clock-")),
      customers: [],
      advanceMs: 0,
      advanceCpuMs: 0,
      jobs: 0,
    }),
  );
  try {
    for (const setup of setups) {
      progress(`sandbox clock: ${setup.label}, onboarding ${setup.work} customers`);
      await startSetup(setup);
      const url = setup.sandbox?.url ?? "";
      setup.customers = await inParallel(setup.work, SETUP_CONNECTIONS, (index) =>
        onboard(url, index),
      );
      await settledDeliveries(setup.receiver);
    }
    for (const setup of setups) {
      await startAndAdvance(
        setup,
        "identifications",
        (url, index) =>
          call(url, "POST", `/customers/${setup.customers[index]?.customer}/identifications`, {
            type: "Direct",
          }),
        REVIEWS_SECONDS,
      );
    }
    for (const setup of [...setups].reverse()) {
      await startAndAdvance(
        setup,
        "deposits",
        (url, index) =>
          call(url, "POST", `/_sandbox/autoramps/${setup.customers[index]?.autoramp}/deposits`, {
            amount: "1000.00",
          }),
        DAY_SECONDS - REVIEWS_SECONDS,
      );
    }
    const [half, full, stored, hooked, onPostgres, hookedOnPostgres] = await Promise.all(
      setups.map(async (setup) => ({
        setup,
        text: describe(setup, (await setup.receiver?.deliveries()) ?? 0),
      })),
    );
    if (!half || !full || !stored || !hooked || !onPostgres || !hookedOnPostgres) {
      throw new Error("six sandboxes were set up");
    }
    const cpuOf = (setup: Setup) => setup.advanceCpuMs;
    const wallOf = (setup: Setup) => setup.advanceMs;
    const day = `POST /_sandbox/clock/advance over a day (two calls: ${REVIEWS_SECONDS / 60} minutes, then the rest)`;
    return [
      {
        figure: `${day}, SQLite file, no webhook: ${full.text}: wall time`,
        value: wallOf(full.setup),
        unit: "ms",
        baselineLabel: `half the work: ${half.text}`,
        baseline: wallOf(half.setup),
        target: {
          text: `< ${TARGETS.sqliteMs.toLocaleString("en-US")} ms`,
          met: wallOf(full.setup) < TARGETS.sqliteMs,
        },
      },
      {
        figure: `the same, a webhook on every topic (a receiver in another process): ${hooked.text}: wall time`,
        value: wallOf(hooked.setup),
        unit: "ms",
        baselineLabel: "the same without a webhook",
        baseline: wallOf(full.setup),
        target: {
          text: `< ${TARGETS.webhookMs.toLocaleString("en-US")} ms`,
          met: wallOf(hooked.setup) < TARGETS.webhookMs,
        },
      },
      {
        figure: `the same on Postgres, one process, no webhook: ${onPostgres.text}: wall time`,
        value: wallOf(onPostgres.setup),
        unit: "ms",
        baselineLabel: "the same on a SQLite file",
        baseline: wallOf(full.setup),
        target: {
          text: `≤ ×${TARGETS.postgres}`,
          met: wallOf(onPostgres.setup) / wallOf(full.setup) <= TARGETS.postgres,
        },
      },
      {
        figure: `the same on Postgres, one process, a webhook on every topic: ${hookedOnPostgres.text}: wall time`,
        value: wallOf(hookedOnPostgres.setup),
        unit: "ms",
        baselineLabel: "the same on a SQLite file",
        baseline: wallOf(hooked.setup),
        target: {
          text: `≤ ×${TARGETS.postgres}`,
          met: wallOf(hookedOnPostgres.setup) / wallOf(hooked.setup) <= TARGETS.postgres,
        },
      },
      {
        figure:
          "the SQLite advances without a webhook: the sandbox process's CPU time (every thread)",
        value: cpuOf(full.setup),
        unit: "ms",
        baselineLabel: "2 × the same for half the work",
        baseline: 2 * cpuOf(half.setup),
        target: {
          text: `≤ ×${TARGETS.work}: grows with the work`,
          met: cpuOf(full.setup) / (2 * cpuOf(half.setup)) <= TARGETS.work,
        },
      },
      {
        figure: `the same with ${STORED.toLocaleString("en-US")} more customers stored: ${stored.text}: CPU time`,
        value: cpuOf(stored.setup),
        unit: "ms",
        baselineLabel: "the same work, nothing more stored",
        baseline: cpuOf(full.setup),
        target: {
          text: `≤ ×${TARGETS.stored}: not with the data`,
          met: cpuOf(stored.setup) / cpuOf(full.setup) <= TARGETS.stored,
        },
      },
    ];
  } finally {
    for (const setup of setups) {
      await setup.sandbox?.stop();
      await setup.receiver?.stop();
      rmSync(setup.dir, { recursive: true, force: true });
    }
    await postgres.stop();
  }
}
