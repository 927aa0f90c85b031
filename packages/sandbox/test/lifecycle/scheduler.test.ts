// The scheduler claims work in as few batches as it can: a kick after a change runs what is due
// and stops once a batch comes back short (each claim also ends SQLite's open group of commits),
// while an advance goes on until nothing is due by its end, retries included.
import { afterEach, expect, it, vi } from "vitest";
import { SandboxClock } from "../../src/clock/clock.js";
import { type ClockOwner, Scheduler } from "../../src/lifecycle/scheduler.js";
import type {
  JobKind,
  NewJob,
  SandboxStore,
  ScheduledJob,
  StoreTransaction,
} from "../../src/store/store.js";

/** A store of scheduled work only, in memory, that counts the batches claimed. */
function workStore() {
  const jobs: ScheduledJob[] = [];
  const claims: { kind: JobKind; took: number }[] = [];
  const held = new Set<ScheduledJob>();
  let seq = 0;
  const add = (job: NewJob) => jobs.push({ ...job, seq: ++seq });
  let offsetMs = 0;
  const tx = {
    schedule: async (job: NewJob) => void add(job),
    moveClock: async (offset: number) => {
      offsetMs = Math.max(offsetMs, offset);
      return offsetMs;
    },
  } as unknown as StoreTransaction;
  const store: SandboxStore = {
    shared: false,
    version: () => 0,
    transaction: async (_partner, work) => work(tx),
    read: async (_partner, work) => work(tx),
    async runBatch(_partner, kind, upTo, limit, perform) {
      const due = jobs
        .filter((job) => job.kind === kind && job.dueAt <= upTo)
        .sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq)
        .slice(0, limit);
      claims.push({ kind, took: due.length });
      if (due.length === 0) return 0;
      const done = await (await perform(due))(tx);
      for (const job of due.slice(0, done)) jobs.splice(jobs.indexOf(job), 1);
      return done;
    },
    async holdJobs(_partner, kind, upTo, limit) {
      const due = jobs
        .filter((job) => job.kind === kind && job.dueAt <= upTo && !held.has(job))
        .sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq)
        .slice(0, limit);
      claims.push({ kind, took: due.length });
      for (const job of due) held.add(job);
      return {
        jobs: due,
        async record(done, finish) {
          await finish(tx);
          for (const job of done) {
            jobs.splice(jobs.indexOf(job), 1);
            held.delete(job);
          }
        },
        async release() {
          for (const job of due) held.delete(job);
        },
      };
    },
    duePartners: async () => [],
    onEventsCommitted: () => () => {},
    purgeIdle: async () => [],
    close: async () => {},
  };
  return { store, jobs, claims, add };
}

const schedulers: Scheduler<ClockOwner>[] = [];
afterEach(async () => {
  await Promise.all(schedulers.splice(0).map((scheduler) => scheduler.close()));
});

/** A delivery job's body, as the scheduler reads it (its order key: webhook and customer). */
const delivery = (attempt: number) => ({
  webhook_id: "wh",
  event: { customer_id: null },
  attempt,
});

/** A scheduler whose deliveries, with `retryOnce`, fail once each and are retried a minute later. */
function scheduler(store: SandboxStore, retryOnce: boolean) {
  const owner: ClockOwner = { partner: "p", clock: new SandboxClock(0) };
  const made = new Scheduler<ClockOwner>(store, async () => owner, {
    step: async () => async () => {},
    deliver: async (_owner, job, clock) => async (tx) => {
      const body = job.body as { attempt: number };
      if (retryOnce && body.attempt === 1) {
        await tx.schedule({
          dueAt: clock.now().getTime() + 60_000,
          kind: "deliver",
          subject: job.subject,
          body: delivery(2),
        });
      }
    },
  });
  schedulers.push(made);
  return { scheduler: made, owner };
}

it("runs a change's deliveries in one claim after the steps' one, when a kick finds them", async () => {
  const { store, jobs, claims, add } = workStore();
  const { scheduler: running, owner } = scheduler(store, false);
  for (const subject of ["a", "b", "c"]) {
    add({ dueAt: 0, kind: "deliver", subject, body: delivery(1) });
  }
  running.kick(owner);
  await vi.waitFor(() => expect(jobs).toEqual([]));
  await running.close();
  expect(claims).toEqual([
    { kind: "step", took: 0 },
    { kind: "deliver", took: 3 },
  ]);
});

it("runs in an advance the retries that fall due before its end", async () => {
  const { store, jobs, claims, add } = workStore();
  const { scheduler: running, owner } = scheduler(store, true);
  add({ dueAt: 0, kind: "deliver", subject: "a", body: delivery(1) });
  const ran = await running.runnerOf(owner).advanceBy(120_000);
  expect(ran).toBe(2);
  expect(jobs).toEqual([]);
  expect(claims.filter((claim) => claim.took > 0)).toEqual([
    { kind: "deliver", took: 1 },
    { kind: "deliver", took: 1 },
  ]);
});

it("lets the event loop turn within a batch of steps, which commits as one", async () => {
  const { store, jobs, claims, add } = workStore();
  let stepsRun = 0;
  const owner: ClockOwner = { partner: "p", clock: new SandboxClock(0) };
  const running = new Scheduler<ClockOwner>(store, async () => owner, {
    step: async () => async () => {
      stepsRun++;
    },
    deliver: async () => async () => {},
  });
  schedulers.push(running);
  for (let n = 0; n < 200; n++) add({ dueAt: n, kind: "step", subject: `s${n}`, body: {} });
  // What arrives while the batch runs (a request, a delivery's answer) is handled before it ends.
  const seen: number[] = [];
  setImmediate(() => seen.push(stepsRun));
  const advanced = running.runnerOf(owner).advanceBy(1_000);
  await advanced;
  expect(jobs).toEqual([]);
  expect(claims.filter((claim) => claim.took > 0)).toEqual([{ kind: "step", took: 200 }]);
  expect(seen).toHaveLength(1);
  expect(seen[0]).toBeGreaterThan(0);
  expect(seen[0]).toBeLessThan(200);
});
