// A partner's failure rehearsal in SQL, the same for SQLite and Postgres: its request log, its
// armed fault rules and its rate limit (migration 7). Every change to the rules or the limit moves
// the partner's `faults_version`, which each request of a shared store reads with its clock.

import type { PageSource, Positioned } from "./pages.js";
import type { Query, Row } from "./sql-query.js";
import {
  type LoggedRequest,
  REQUESTS_KEPT,
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
      const [last] = await query(
        "SELECT n FROM request_log WHERE partner = $1 ORDER BY n DESC LIMIT 1",
        [partner],
      );
      let n = Number(last?.n ?? 0);
      for (const entry of entries) {
        n++;
        await query(
          "INSERT INTO request_log (partner, n, operation_id, status, fault_id, idem_key, body) VALUES ($1, $2, $3, $4, $5, $6, $7)",
          [
            partner,
            n,
            entry.operation_id,
            entry.status,
            entry.fault_id,
            entry.idempotency_key,
            JSON.stringify(entry),
          ],
        );
      }
      if (n > REQUESTS_KEPT) {
        await query("DELETE FROM request_log WHERE partner = $1 AND n <= $2", [
          partner,
          n - REQUESTS_KEPT,
        ]);
      }
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
 * The entries of the partner's request log that match the filter, newest first (by `n`, then
 * `seq`, the order of its index); an entry's `seq` is its cursor.
 */
function requestLogSource(
  query: Query,
  partner: string,
  filter: RequestLogFilter,
): PageSource<LoggedRequest> {
  const params: unknown[] = [partner];
  const conditions = ["partner = $1"];
  const equal = (column: string, value: string | number | undefined) => {
    if (value === undefined) return;
    params.push(value);
    conditions.push(`${column} = $${params.length}`);
  };
  equal("operation_id", filter.operation_id);
  equal("status", filter.status);
  equal("fault_id", filter.fault_id);
  equal("idem_key", filter.idempotency_key);
  const where = conditions.join(" AND ");
  const nOf = new Map<number, number>();
  const read = async (
    place: string,
    at: unknown[],
    order: "ASC" | "DESC",
    limit: number,
  ): Promise<Positioned<LoggedRequest>[]> => {
    const rows = await query(
      `SELECT n, seq, body FROM request_log WHERE ${where}${place} ORDER BY n ${order}, seq ${order} LIMIT ${Math.trunc(limit)}`,
      [...params, ...at],
    );
    return rows.map((row: Row) => {
      nOf.set(Number(row.seq), Number(row.n));
      return { position: Number(row.seq), item: { id: String(row.seq), text: String(row.body) } };
    });
  };
  const n = `$${params.length + 1}`;
  const seq = `$${params.length + 2}`;
  const at = (position: number) => [nOf.get(position) ?? 0, position];
  return {
    async position(id) {
      if (!/^[0-9]{1,15}$/.test(id)) return undefined;
      const [found] = await read(` AND seq = $${params.length + 1}`, [Number(id)], "DESC", 1);
      return found?.position;
    },
    from: (position, limit) =>
      position === undefined
        ? read("", [], "DESC", limit)
        : read(` AND (n < ${n} OR (n = ${n} AND seq <= ${seq}))`, at(position), "DESC", limit),
    before: async (position, limit) =>
      (
        await read(` AND (n > ${n} OR (n = ${n} AND seq > ${seq}))`, at(position), "ASC", limit)
      ).reverse(),
    // The stored entry with its place in the log as its `id`, first.
    json: (item) => `{"id":${JSON.stringify(item.id)},${item.text.slice(1)}`,
  };
}
