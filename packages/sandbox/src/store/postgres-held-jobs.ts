// Jobs a Postgres process holds while it works on them (webhook deliveries, sent to receivers).
// One statement takes a batch and marks it held (a holder id of the batch's own, and a time the
// hold lapses, by the database's clock) and commits at once, so no transaction stays open and no
// connection is kept while the batch's requests go out. Each part of the batch is then recorded
// as it is done, with the removal of its jobs: in one statement where it adds only attempts and
// counts (a delivery that arrived), else in a transaction. A process that dies leaves its held
// jobs to the others once the hold lapses: what it had sent and not recorded goes out again, what
// it had not sent goes out once.

import { randomUUID } from "node:crypto";
import { type KeptAttempts, postgresBatch } from "./postgres-batch.js";
import { countsParameter } from "./readiness-counts.js";
import type { Query } from "./sql-query.js";
import { type Dialect, scheduledJobOf, type Upkeep } from "./sql-store.js";
import { EVENTS_KEPT, type HeldJobs, type JobFinish, type JobKind } from "./store.js";

/** How long a hold lasts unless renewed: how long a dead process's jobs wait for another. */
const HOLD_MS = 5_000;
/** A living process renews its holds this often, well within HOLD_MS. */
const RENEW_MS = 1_000;

/** Real time in ms, by the database's clock, which every process shares. */
const NOW_MS = "CAST(extract(epoch FROM clock_timestamp()) * 1000 AS BIGINT)";

/**
 * Takes up to $2 of the partner's ($3) jobs of kind $4 due by $1, unheld or whose hold lapsed,
 * for holder $5. `= ANY(ARRAY(…))`, not `IN (…)`: the rows are then found by their key, where
 * `IN` let the planner read the whole table to join it with the jobs taken.
 */
const HOLD = `UPDATE scheduled_work SET held_by = $5, held_until = ${NOW_MS} + ${HOLD_MS}
  WHERE seq = ANY(ARRAY(
    SELECT seq FROM scheduled_work
    WHERE partner = $3 AND kind = $4 AND due_at <= $1 AND (held_until IS NULL OR held_until <= ${NOW_MS})
    ORDER BY due_at, seq LIMIT $2 FOR UPDATE SKIP LOCKED))
  RETURNING seq, due_at, kind, subject, body`;

const RENEW = `UPDATE scheduled_work SET held_until = ${NOW_MS} + ${HOLD_MS} WHERE seq = ANY($1::bigint[]) AND held_by = $2`;

const RELEASE =
  "UPDATE scheduled_work SET held_by = NULL, held_until = NULL WHERE seq = ANY($1::bigint[]) AND held_by = $2";

/** Removes the jobs (`seqs`, by their key) that the holder (`holder`) still holds. */
const remove = (holder: string, seqs: string) =>
  `DELETE FROM scheduled_work WHERE seq = ANY(${seqs}::bigint[]) AND held_by = ${holder} RETURNING seq`;

/**
 * The partner's ($1) jobs ($3) removed that the holder ($2) still holds, and the attempts ($4, as
 * insertEvents in postgres-batch.ts writes them) and counts ($5) added, in one statement. Nothing is written when none of the jobs was still held: the partner
 * was reset (or removed) while they were sent, which leaves nothing of before.
 */
const RECORD_ATTEMPTS = `WITH removed AS (${remove("$2", "$3")}),
  logged AS (
    INSERT INTO events (partner, n, body)
    SELECT CAST($1 AS TEXT), last.n + v.n + 1, v.body
    FROM (SELECT COALESCE(MAX(n), 0) AS n FROM events WHERE partner = $1) AS last,
      json_to_recordset($4::json) AS v(n integer, body text)
    WHERE EXISTS (SELECT 1 FROM removed)
    ORDER BY v.n RETURNING n),
  counted AS (
    INSERT INTO readiness_counts (partner, kind, name, detail, n)
    SELECT CAST($1 AS TEXT), v.kind, v.name, v.detail, v.n
    FROM json_to_recordset($5::json) AS v(kind text, name text, detail text, n bigint)
    WHERE EXISTS (SELECT 1 FROM removed)
    ON CONFLICT (partner, kind, name, detail) DO UPDATE SET n = readiness_counts.n + excluded.n)
  DELETE FROM events WHERE partner = $1 AND n <= (SELECT MAX(n) FROM logged) - ${EVENTS_KEPT}`;

/** How the store runs SQL: one statement on its own (its own transaction), or a transaction. */
export interface PostgresRunner {
  statement: Query;
  transaction<T>(work: (query: Query) => Promise<T>): Promise<T>;
}

/**
 * SandboxStore.holdJobs on Postgres (`holdJobs`), and `stop`, which ends the renewals of the
 * holds not released as the store closes.
 */
export function postgresHeldJobs(
  run: PostgresRunner,
  dialect: Dialect,
  upkeep: Upkeep,
  counting: boolean,
) {
  const renewals = new Set<NodeJS.Timeout>();
  const holdJobs = async (
    partner: string,
    kind: JobKind,
    upTo: number,
    limit: number,
  ): Promise<HeldJobs> => {
    const holder = randomUUID();
    const rows = await run.statement(HOLD, [upTo, limit, partner, kind, holder]);
    const jobs = rows.map(scheduledJobOf).sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq);
    const unrecorded = new Set(jobs.map((job) => job.seq));
    const renewal = setInterval(() => {
      // A renewal that fails (the database is gone) leaves the hold to lapse.
      run.statement(RENEW, [[...unrecorded], holder]).catch(() => {});
    }, RENEW_MS);
    renewal.unref();
    renewals.add(renewal);
    const stopRenewal = () => {
      clearInterval(renewal);
      renewals.delete(renewal);
    };
    if (jobs.length === 0) stopRenewal();

    /** What `finish` writes, when it is only attempts and counts; found without a statement sent. */
    const keptAttempts = async (finish: JobFinish): Promise<KeptAttempts | undefined> => {
      const refuse: Query = async () => {
        throw new Error("a record that reads or writes more than attempts and counts");
      };
      const dry = postgresBatch(refuse, dialect, upkeep, partner, counting);
      try {
        await finish(dry);
      } catch {
        return undefined;
      }
      return dry.keptAttempts();
    };

    return {
      jobs,
      async record(done, finish) {
        const seqs = done.map((job) => job.seq);
        const kept = await keptAttempts(finish);
        if (kept !== undefined) {
          const attempts = kept.events.map((event, n) => ({ n, body: JSON.stringify(event) }));
          await run.statement(RECORD_ATTEMPTS, [
            partner,
            holder,
            seqs,
            JSON.stringify(attempts),
            countsParameter(kept.counts),
          ]);
        } else {
          await run.transaction(async (query) => {
            const removed = await query(remove("$1", "$2"), [holder, seqs]);
            if (removed.length === 0) return;
            const batch = postgresBatch(query, dialect, upkeep, partner, counting);
            await finish(batch);
            await batch.flush();
            // Last: the partner's event counter stays locked from here until the commit.
            await batch.writeEvents();
          });
        }
        for (const seq of seqs) unrecorded.delete(seq);
      },
      async release() {
        stopRenewal();
        if (unrecorded.size === 0) return;
        // When this fails (the database is gone), the hold lapses by itself.
        await run.statement(RELEASE, [[...unrecorded], holder]).catch(() => {});
      },
    };
  };
  const stop = () => {
    for (const renewal of renewals) clearInterval(renewal);
    renewals.clear();
  };
  return { holdJobs, stop };
}
