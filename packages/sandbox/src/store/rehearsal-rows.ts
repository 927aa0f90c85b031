// A partner's failure rehearsal in SQL, the same for SQLite and Postgres: its request log, its
// armed fault rules and its rate limit (migration 7). Every change to the rules or the limit moves
// the partner's `faults_version`, which each request of a shared store reads with its clock.

import type { PageSource, Positioned } from "./pages.js";
import { batchEntries, batchText } from "./request-batch.js";
import type { Query } from "./sql-query.js";
import {
  type LoggedRequest,
  REQUESTS_KEPT,
  type RequestEntry,
  type RequestLogFilter,
  type StoreTransaction,
} from "./store.js";

type RehearsalRows = Pick<
  StoreTransaction,
  | "partnerState"
  | "appendRequests"
  | "requestLog"
  | "armed"
  | "armFault"
  | "disarmFault"
  | "claimFault"
  | "setRateLimit"
  | "takeRateToken"
>;

/** The partner's request log, rules and rate limit, in the transaction `query` belongs to. */
export function rehearsalRows(query: Query, partner: string): RehearsalRows {
  const bump = () =>
    query("UPDATE sandbox_clock SET faults_version = faults_version + 1 WHERE partner = $1", [
      partner,
    ]);
  return {
    async partnerState() {
      const [row] = await query(
        "SELECT offset_ms, faults_version FROM sandbox_clock WHERE partner = $1",
        [partner],
      );
      return {
        offsetMs: Number(row?.offset_ms ?? 0),
        faultsVersion: Number(row?.faults_version ?? 0),
      };
    },
    async appendRequests(entries) {
      if (entries.length === 0) return;
      // A batch is one row: a request pays for its entry's part of the text, not for a row and an
      // index entry.
      await query("INSERT INTO request_log (partner, entries, body) VALUES ($1, $2, $3)", [
        partner,
        entries.length,
        batchText(entries),
      ]);
      await query(TRIM_REQUESTS, [partner, REQUESTS_KEPT]);
    },
    requestLog(filter) {
      return requestLogSource(query, partner, filter);
    },
    async armed() {
      const faults = await query(
        "SELECT id, rule, remaining, draws FROM faults WHERE partner = $1 ORDER BY seq",
        [partner],
      );
      const [limit] = await query(
        "SELECT rule, interval_us, burst FROM rate_limits WHERE partner = $1",
        [partner],
      );
      return {
        faults: faults.map((row) => ({
          id: String(row.id),
          rule: String(row.rule),
          remaining: row.remaining === null ? null : Number(row.remaining),
          draws: Number(row.draws),
        })),
        rateLimit:
          limit === undefined
            ? undefined
            : {
                rule: String(limit.rule),
                intervalUs: Number(limit.interval_us),
                burst: Number(limit.burst),
              },
      };
    },
    async armFault(fault) {
      await query(
        "INSERT INTO faults (partner, id, rule, remaining, draws) VALUES ($1, $2, $3, $4, $5)",
        [partner, fault.id, fault.rule, fault.remaining, fault.draws],
      );
      await bump();
    },
    async disarmFault(id) {
      const gone = await query("DELETE FROM faults WHERE partner = $1 AND id = $2 RETURNING id", [
        partner,
        id,
      ]);
      if (gone.length > 0) await bump();
      return gone.length > 0;
    },
    async claimFault(id) {
      // One statement: of two processes claiming a rule's last application, the second waits for
      // the first's row lock (Postgres) or transaction (SQLite), then finds nothing to claim.
      const [row] = await query(
        `UPDATE faults SET remaining = CASE WHEN remaining IS NULL THEN NULL ELSE remaining - 1 END, draws = draws + 1
          WHERE partner = $1 AND id = $2 AND (remaining IS NULL OR remaining > 0) RETURNING remaining, draws`,
        [partner, id],
      );
      if (row === undefined) return undefined;
      const remaining = row.remaining === null ? null : Number(row.remaining);
      if (remaining === 0) {
        await query("DELETE FROM faults WHERE partner = $1 AND id = $2", [partner, id]);
        await bump();
      }
      return { remaining, draw: Number(row.draws) };
    },
    async setRateLimit(limit) {
      if (limit === undefined) {
        await query("DELETE FROM rate_limits WHERE partner = $1", [partner]);
      } else {
        await query(
          `INSERT INTO rate_limits (partner, rule, interval_us, burst, tat_us) VALUES ($1, $2, $3, $4, 0)
            ON CONFLICT (partner) DO UPDATE SET rule = excluded.rule, interval_us = excluded.interval_us, burst = excluded.burst, tat_us = 0`,
          [partner, limit.rule, limit.intervalUs, limit.burst],
        );
      }
      await bump();
    },
    async takeRateToken(nowUs) {
      // GCRA in one statement: the request is allowed when its theoretical arrival time, pushed
      // one interval on, stays within the burst of now; only then is it stored.
      const start =
        "(CASE WHEN tat_us > CAST($2 AS BIGINT) THEN tat_us ELSE CAST($2 AS BIGINT) END)";
      const [taken] = await query(
        `UPDATE rate_limits SET tat_us = ${start} + interval_us
          WHERE partner = $1 AND ${start} + interval_us - CAST($2 AS BIGINT) <= burst * interval_us RETURNING tat_us`,
        [partner, Math.round(nowUs)],
      );
      if (taken !== undefined) return { allowed: true, tatUs: Number(taken.tat_us) };
      const [limit] = await query("SELECT tat_us FROM rate_limits WHERE partner = $1", [partner]);
      return limit === undefined ? undefined : { allowed: false, tatUs: Number(limit.tat_us) };
    },
  };
}

/**
 * Drops the partner's batches older than the one that holds its $2th newest request: the log keeps
 * at least its newest $2, at most a batch more.
 */
const TRIM_REQUESTS = `DELETE FROM request_log WHERE partner = $1 AND seq < (
  SELECT MIN(seq) FROM (
    SELECT seq, SUM(entries) OVER (ORDER BY seq DESC ROWS UNBOUNDED PRECEDING) - entries AS newer
    FROM request_log WHERE partner = $1
  ) AS batches WHERE newer < $2)`;

/** An entry's place in the log: its batch's `seq` times this, plus its index in the batch. */
const PLACES_PER_BATCH = 1_000_000;
/** Batches read at most at a time while a page fills (the first read takes one, each next twice as many). */
const BATCHES_READ = 64;

/**
 * The entries of the partner's request log that match the filter, newest first; an entry's
 * place in the log is its cursor. The batches are read newest first until the page is full, and
 * filtered here: a page of common entries reads a batch or two; one of rare ones at most the
 * partner's REQUESTS_KEPT entries.
 */
function requestLogSource(
  query: Query,
  partner: string,
  filter: RequestLogFilter,
): PageSource<LoggedRequest> {
  const matches = (entry: RequestEntry) =>
    (filter.operation_id === undefined || entry.operation_id === filter.operation_id) &&
    (filter.status === undefined || entry.status === filter.status) &&
    (filter.fault_id === undefined || entry.fault_id === filter.fault_id) &&
    (filter.idempotency_key === undefined || entry.idempotency_key === filter.idempotency_key);
  const positioned = (seq: number, index: number, entry: RequestEntry) => {
    const place = seq * PLACES_PER_BATCH + index;
    const listed = { id: String(place), ...entry, at: new Date(entry.at).toISOString() };
    return { position: place, item: { id: String(place), text: JSON.stringify(listed) } };
  };
  /** Up to `limit` matching entries from batch `seq` towards the oldest (or the newest). */
  const walk = async (
    seq: number,
    towards: "older" | "newer",
    keep: (place: number) => boolean,
    limit: number,
  ): Promise<Positioned<LoggedRequest>[]> => {
    const found: Positioned<LoggedRequest>[] = [];
    const older = towards === "older";
    let next = seq;
    let batches = 1;
    while (found.length < limit) {
      const rows = await query(
        `SELECT seq, body FROM request_log WHERE partner = $1 AND seq ${older ? "<=" : ">="} $2 ORDER BY seq ${older ? "DESC" : "ASC"} LIMIT $3`,
        [partner, next, batches],
      );
      for (const row of rows) {
        const batch = Number(row.seq);
        const entries = batchEntries(String(row.body));
        for (let step = 0; step < entries.length && found.length < limit; step++) {
          const index = older ? entries.length - 1 - step : step;
          const entry = entries[index] as RequestEntry;
          if (keep(batch * PLACES_PER_BATCH + index) && matches(entry)) {
            found.push(positioned(batch, index, entry));
          }
        }
      }
      if (rows.length < batches) break;
      next = Number(rows.at(-1)?.seq) + (older ? -1 : 1);
      batches = Math.min(batches * 2, BATCHES_READ);
    }
    return found;
  };
  return {
    async position(id) {
      if (!/^[0-9]{1,15}$/.test(id)) return undefined;
      const place = Number(id);
      const [row] = await query("SELECT body FROM request_log WHERE partner = $1 AND seq = $2", [
        partner,
        Math.floor(place / PLACES_PER_BATCH),
      ]);
      const entry = row && batchEntries(String(row.body))[place % PLACES_PER_BATCH];
      return entry !== undefined && matches(entry) ? place : undefined;
    },
    // From a place on is from it towards the oldest; before it, the newer ones.
    from: (position, limit) =>
      position === undefined
        ? walk(Number.MAX_SAFE_INTEGER, "older", () => true, limit)
        : walk(
            Math.floor(position / PLACES_PER_BATCH),
            "older",
            (place) => place <= position,
            limit,
          ),
    before: async (position, limit) =>
      (
        await walk(
          Math.floor(position / PLACES_PER_BATCH),
          "newer",
          (place) => place > position,
          limit,
        )
      ).reverse(),
    json: (item) => item.text,
  };
}
