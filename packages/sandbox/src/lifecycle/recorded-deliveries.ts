// A held batch of webhook deliveries, sent and recorded so that at most `limit` of them are ever
// sent (or being sent) and not yet recorded: those are all that a process that dies sends again.
// Those of one order key go one after another, in the order they are due; the others at once,
// within the limit. Outcomes are recorded together once no send is under way (none would join
// them), or once a job waits for the room they hold: a transaction for each batch of up to
// `limit`, as a transaction costs a Postgres round trip or more and a delivery to a receiver
// nearby less; a slow receiver delays the others' records only until their room is wanted.

import type { HeldJobs, JobFinish, ScheduledJob } from "../store/store.js";

/**
 * Sends each held job (`send` resolves to what its record commits) and records it; resolves to
 * the number recorded. On a failure (a send's work or a record) it rejects at once: what was
 * recorded stays, the rest is left to the caller to release.
 */
export function sendAndRecord(
  held: HeldJobs,
  orderKey: (job: ScheduledJob) => string,
  limit: number,
  send: (job: ScheduledJob) => Promise<JobFinish>,
): Promise<number> {
  const place = new Map(held.jobs.map((job, index) => [job, index]));
  const byKey = new Map<string, ScheduledJob[]>();
  for (const job of held.jobs) {
    const key = orderKey(job);
    byKey.set(key, [...(byKey.get(key) ?? []), job]);
  }
  /** Each key's jobs not sent yet, keys in the order of their first job. */
  const queues = [...byKey.values()];
  /** The queues whose job is being sent: their next waits for it. */
  const sending = new Set<ScheduledJob[]>();
  const ended: { job: ScheduledJob; finish: JobFinish }[] = [];
  let unrecorded = 0;
  let recording = false;
  let recorded = 0;
  return new Promise((resolve, reject) => {
    let failed = false;
    const fail = (error: unknown) => {
      failed = true;
      reject(error);
    };
    const recordEnded = () => {
      // In the order they were due, whichever answered first: the log lists them so.
      const some = ended
        .splice(0)
        .sort((a, b) => (place.get(a.job) ?? 0) - (place.get(b.job) ?? 0));
      recording = true;
      held
        .record(
          some.map((sent) => sent.job),
          async (tx) => {
            for (const sent of some) await sent.finish(tx);
          },
        )
        .then(() => {
          recording = false;
          unrecorded -= some.length;
          recorded += some.length;
          next();
        }, fail);
    };
    const next = () => {
      if (failed) return;
      while (unrecorded < limit) {
        const queue = queues.find((jobs) => jobs.length > 0 && !sending.has(jobs));
        if (queue === undefined) break;
        const job = queue.shift() as ScheduledJob;
        sending.add(queue);
        unrecorded++;
        send(job).then((finish) => {
          sending.delete(queue);
          ended.push({ job, finish });
          next();
        }, fail);
      }
      const waiting = queues.some((jobs) => jobs.length > 0 && !sending.has(jobs));
      const due = sending.size === 0 || (waiting && unrecorded >= limit);
      if (!recording && ended.length > 0 && due) recordEnded();
      else if (!recording && unrecorded === 0) resolve(recorded);
    };
    next();
  });
}
