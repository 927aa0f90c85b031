// A partner's fault rules and rate limit in SQL, the same for SQLite and Postgres (migration 7):
// the rows of faults/ and rate-limit/. Every change to the rules or the limit moves the partner's
// `faults_version`, which each request of a shared store reads with its clock.
import type { FaultRows } from "../faults/index.js";
import type { RateLimitRows } from "../rate-limit/index.js";
import type { Query } from "./sql-query.js";

/** The partner's rules and rate limit, in the transaction `query` belongs to. */
export function faultRows(query: Query, partner: string): FaultRows & RateLimitRows {
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
