// A held batch of deliveries is sent with at most 16 of them sent and not yet recorded (all that a
// process that dies sends again), each key's in order, and every one recorded once.
import { expect, it, vi } from "vitest";
import { sendAndRecord } from "../../src/lifecycle/recorded-deliveries.js";
import type { HeldJobs, JobFinish, ScheduledJob, StoreTransaction } from "../../src/store/store.js";

const LIMIT = 16;

/** Resolves after `turns` turns of the event loop. */
async function turns(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** `count` jobs over 40 keys (a key's jobs due one after another), as a store holds them. */
function heldBatch(recordTurns: number, failAtRecord?: number, count = 128) {
  const jobs: ScheduledJob[] = Array.from({ length: count }, (_, seq) => ({
    seq,
    dueAt: seq,
    kind: "deliver",
    subject: `evt_${seq}`,
    body: { key: `k${seq % 40}` },
  }));
  const recorded: number[] = [];
  const records: number[][] = [];
  const held: HeldJobs = {
    jobs,
    async record(done, finish) {
      if (records.length === failAtRecord) throw new Error("the database went away");
      await turns(recordTurns);
      await finish({} as StoreTransaction);
      records.push(done.map((job) => job.seq));
      recorded.push(...done.map((job) => job.seq));
    },
    release: async () => {},
  };
  return { held, jobs, recorded, records };
}

const keyOf = (job: ScheduledJob) => (job.body as { key: string }).key;

it("keeps at most 16 sent and unrecorded, sends each key's in order, records each once", async () => {
  const { held, jobs, recorded, records } = heldBatch(3);
  let unrecorded = 0;
  let most = 0;
  const sendingKeys = new Set<string>();
  const sentOrder: number[] = [];
  const send = async (job: ScheduledJob): Promise<JobFinish> => {
    expect(sendingKeys.has(keyOf(job))).toBe(false);
    sendingKeys.add(keyOf(job));
    sentOrder.push(job.seq);
    unrecorded++;
    most = Math.max(most, unrecorded);
    await turns(1 + (job.seq % 4));
    sendingKeys.delete(keyOf(job));
    return async () => {
      unrecorded--;
    };
  };
  const done = await sendAndRecord(held, keyOf, LIMIT, send);
  expect(done).toBe(128);
  expect(most).toBe(LIMIT);
  expect([...recorded].sort((a, b) => a - b)).toEqual(jobs.map((job) => job.seq));
  for (let key = 0; key < 40; key++) {
    const ofKey = sentOrder.filter((seq) => seq % 40 === key);
    expect(ofKey).toEqual([...ofKey].sort((a, b) => a - b));
  }
  // Outcomes that end while a record commits share the next one.
  expect(records.length).toBeLessThan(128);
  expect(Math.max(...records.map((some) => some.length))).toBeLessThanOrEqual(LIMIT);
});

it("records a batch smaller than the limit in one transaction", async () => {
  const { held, records } = heldBatch(1, undefined, 10);
  const send = async (job: ScheduledJob) => {
    await turns(1 + (job.seq % 5));
    return async () => {};
  };
  expect(await sendAndRecord(held, keyOf, LIMIT, send)).toBe(10);
  expect(records).toHaveLength(1);
});

it("records the others while a slow send goes on, once they want its room", async () => {
  const { held, recorded } = heldBatch(1, undefined, 40);
  let answer = () => {};
  const slowAnswered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const send = async (job: ScheduledJob) => {
    if (job.seq === 0) await slowAnswered;
    else await turns(1);
    return async () => {};
  };
  const sending = sendAndRecord(held, keyOf, LIMIT, send);
  // The first 15 make room for the next 15, which make room for the last 9.
  await vi.waitFor(() => expect(recorded).toHaveLength(30));
  expect(recorded).not.toContain(0);
  answer();
  expect(await sending).toBe(40);
  expect(recorded).toHaveLength(40);
});

it("stops at a record that fails, keeping what was recorded before", async () => {
  const { held, recorded } = heldBatch(1, 2);
  const send = async () => {
    await turns(1);
    return async () => {};
  };
  await expect(sendAndRecord(held, keyOf, LIMIT, send)).rejects.toThrow("went away");
  expect(recorded.length).toBeGreaterThan(0);
  expect(recorded.length).toBeLessThan(128);
});
