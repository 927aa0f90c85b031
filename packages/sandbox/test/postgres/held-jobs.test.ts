// Deliveries a Postgres process holds (postgres-held-jobs.ts): no other process takes them while
// it holds them; each part it records is gone with its attempt written; what it lets go another
// takes at once, and what a process that stopped (without letting go) held, once the hold lapses.
import pg from "pg";
import { expect, it, type TestContext } from "vitest";
import { openPostgresStore } from "../../src/store/postgres-store.js";
import type { SandboxStore } from "../../src/store/store.js";
import { emptyData, newStore } from "../support/postgres-store.js";

const A = "partner-a";

function attempt(id: string) {
  return {
    id,
    topic: "CustomerCreated",
    webhook_id: "wh_1",
    url: "",
    created_at: "",
    delivered: true,
    payload: {},
  };
}

/** Two processes' stores on one new database, with deliveries evt_1 … evt_<count> due at 1. */
async function twoProcesses(context: TestContext, count: number) {
  const { url, store: first } = await newStore(context);
  const second = await openPostgresStore(url, emptyData);
  context.onTestFinished(() => second.close());
  await first.transaction(A, async (tx) => {
    await tx.enter(0);
    for (let n = 1; n <= count; n++) {
      await tx.schedule({ dueAt: 1, kind: "deliver", subject: `evt_${n}`, body: { n } });
    }
  });
  return { url, first, second };
}

const subjects = (held: { jobs: readonly { subject: string }[] }) =>
  held.jobs.map((job) => job.subject);

const logged = async (store: SandboxStore) =>
  (await store.transaction(A, (tx) => tx.events())).map((event) => event.id);

it("keeps what one process holds from the others; a part recorded goes with its attempts", async (context) => {
  const { first, second } = await twoProcesses(context, 3);
  const held = await first.holdJobs(A, "deliver", 1, 2);
  expect(subjects(held)).toEqual(["evt_1", "evt_2"]);
  const other = await second.holdJobs(A, "deliver", 1, 10);
  expect(subjects(other)).toEqual(["evt_3"]);
  expect(subjects(await second.holdJobs(A, "deliver", 1, 10))).toEqual([]);

  // An arrived delivery's record (one statement), then one that reads (a transaction).
  await held.record(held.jobs.slice(0, 1), async (tx) => {
    await tx.recordEvent(attempt("evt_1"));
    await tx.addCounts([{ kind: "delivered", name: "CustomerCreated", detail: "", n: 1 }]);
  });
  await held.record(held.jobs.slice(1, 2), async (tx) => {
    await tx.find("webhooks", "wh_1", undefined);
    await tx.recordEvent(attempt("evt_2"));
  });
  await held.release();
  expect(await logged(first)).toEqual(["evt_2", "evt_1"]);
  const counts = await first.transaction(A, (tx) => tx.countsOf("delivered"));
  expect(counts).toEqual([{ kind: "delivered", name: "CustomerCreated", detail: "", n: 1 }]);
  // Both gone; evt_3 is still the other's.
  expect(subjects(await first.holdJobs(A, "deliver", 1, 10))).toEqual([]);
  await other.release();
  expect(subjects(await first.holdJobs(A, "deliver", 1, 10))).toEqual(["evt_3"]);
});

it("gives another process the jobs of one that stopped without letting go, once the hold lapses", async (context) => {
  const { url, first } = await twoProcesses(context, 3);
  const dying = await openPostgresStore(url, emptyData);
  const held = await dying.holdJobs(A, "deliver", 1, 10);
  await held.record(held.jobs.slice(0, 1), async (tx) => {
    await tx.recordEvent(attempt("evt_1"));
  });
  // Its process gone: no release, no renewal.
  await dying.close();
  expect(subjects(await first.holdJobs(A, "deliver", 1, 10))).toEqual([]);
  // A minute later by the database's clock (the holds moved back a minute rather than waited
  // for): a hold lasts less than that, so the dead process's jobs are the others' again.
  await aMinutePassesForTheHolds(url);
  expect(subjects(await first.holdJobs(A, "deliver", 1, 10))).toEqual(["evt_2", "evt_3"]);
});

async function aMinutePassesForTheHolds(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      "UPDATE scheduled_work SET held_until = held_until - 60000 WHERE held_until IS NOT NULL",
    );
  } finally {
    await client.end();
  }
}

it("writes nothing for jobs that a reset removed while they were held", async (context) => {
  const { first } = await twoProcesses(context, 2);
  const held = await first.holdJobs(A, "deliver", 1, 10);
  await first.transaction(A, (tx) => tx.replaceAll(emptyData()));
  await held.record(held.jobs, async (tx) => {
    await tx.recordEvent(attempt("evt_1"));
    await tx.addCounts([{ kind: "delivered", name: "CustomerCreated", detail: "", n: 1 }]);
  });
  await held.release();
  expect(await logged(first)).toEqual([]);
  expect(await first.transaction(A, (tx) => tx.countsOf("delivered"))).toEqual([]);
});
