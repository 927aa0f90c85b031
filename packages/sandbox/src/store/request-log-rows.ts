// A partner's request log in SQL, the same for SQLite and Postgres (migration 7): the rows of
// request-log/. The log is kept in batches, one row each (request-log-batch.ts).
import type { PageSource, Positioned } from "../json/pages.js";
import type {
  KeptRequest,
  LoggedRequest,
  RequestLogFilter,
  RequestLogRows,
} from "../request-log/index.js";
import { batchEntries, batchText } from "./request-log-batch.js";
import type { Query } from "./sql-query.js";
import { REQUESTS_KEPT } from "./store.js";

/** Entries a partner's log takes, from this process, between two trims. */
export const TRIM_AFTER = 2_000;
/** Partners whose entries since their last trim are known; past this many, they start afresh. */
const PARTNERS_KNOWN = 10_000;

/**
 * When a store trims a partner's log: at its first append in this process, then once it has taken
 * TRIM_AFTER entries more. A batch of writes is as small as the writes answered together (each
 * waits for its entry's commit), and the trim reads every batch of the partner's: trimmed at each,
 * a log of 10,000 entries in batches of a few would cost its appends more than the requests.
 */
export class LogTrims {
  private readonly added = new Map<string, number>();

  /** Whether the append of `entries` to the partner's log trims it. */
  due(partner: string, entries: number): boolean {
    const added = this.added.get(partner);
    if (added !== undefined && added + entries < TRIM_AFTER) {
      this.added.set(partner, added + entries);
      return false;
    }
    if (this.added.size >= PARTNERS_KNOWN) this.added.clear();
    this.added.set(partner, 0);
    return true;
  }
}

/**
 * The number of each partner's newest batch, where only this process writes (SQLite): read once
 * per partner, then counted here, so that an append reads nothing first.
 */
export class BatchNumbers {
  private readonly newest = new Map<string, number>();

  /** The partner's next batch number; `read` gives its newest in the store, the first time. */
  async next(partner: string, read: () => Promise<number>): Promise<number> {
    let newest = this.newest.get(partner);
    if (newest === undefined) {
      if (this.newest.size >= PARTNERS_KNOWN) this.newest.clear();
      newest = await read();
    }
    this.newest.set(partner, newest + 1);
    return newest + 1;
  }
}

/**
 * The partner's request log, in the transaction `query` belongs to. Its batches are numbered per
 * partner (`n`): a store-wide number would tell a partner how many requests the others made
 * between its own. `numbers` counts them where only this process writes; elsewhere each append
 * takes the newest number plus one, and two processes taking the same one fail one batch, which
 * is tried again.
 */
export function requestLogRows(
  query: Query,
  partner: string,
  trims: LogTrims,
  numbers?: BatchNumbers,
): RequestLogRows {
  return {
    async appendRequests(entries) {
      if (entries.length === 0) return;
      // A batch is one row: a request pays for its entry's part of the text, not for a row and an
      // index entry.
      const text = batchText(entries);
      if (numbers === undefined) {
        await query(
          "INSERT INTO request_log (partner, n, entries, body) SELECT CAST($1 AS TEXT), COALESCE(MAX(n), 0) + 1, CAST($2 AS INTEGER), CAST($3 AS TEXT) FROM request_log WHERE partner = $1",
          [partner, entries.length, text],
        );
      } else {
        const n = await numbers.next(partner, () => newestBatch(query, partner));
        await query("INSERT INTO request_log (partner, n, entries, body) VALUES ($1, $2, $3, $4)", [
          partner,
          n,
          entries.length,
          text,
        ]);
      }
      if (trims.due(partner, entries.length)) await query(TRIM_REQUESTS, [partner, REQUESTS_KEPT]);
    },
    requestLog(filter) {
      return requestLogSource(query, partner, filter);
    },
  };
}

async function newestBatch(query: Query, partner: string): Promise<number> {
  const [row] = await query("SELECT MAX(n) AS n FROM request_log WHERE partner = $1", [partner]);
  return Number(row?.n ?? 0);
}

/**
 * Empties the partner's log (a reset) but for its newest batch's number, kept in a batch of no
 * entries: the ids given after the reset go on from those given before, as a cursor expects.
 */
export async function emptyRequestLog(query: Query, partner: string): Promise<void> {
  await query(
    "DELETE FROM request_log WHERE partner = $1 AND n < (SELECT MAX(n) FROM request_log WHERE partner = $1)",
    [partner],
  );
  await query("UPDATE request_log SET entries = 0, body = $2 WHERE partner = $1", [
    partner,
    batchText([]),
  ]);
}

/**
 * Drops the partner's batches older than the one that holds its $2th newest request: the log keeps
 * at least its newest $2, at most a batch more.
 */
const TRIM_REQUESTS = `DELETE FROM request_log WHERE partner = $1 AND n < (
  SELECT MIN(n) FROM (
    SELECT n, SUM(entries) OVER (ORDER BY n DESC ROWS UNBOUNDED PRECEDING) - entries AS newer
    FROM request_log WHERE partner = $1
  ) AS batches WHERE newer < $2)`;

/** An entry's place in the log: its batch's `n` times this, plus its index in the batch. */
export const PLACES_PER_BATCH = 1_000_000;
/** Batches read at most at a time while a page fills (the first read takes one, each next twice as many). */
const BATCHES_READ = 64;

/** Whether the filter keeps an entry of the request log (every store filters as this does). */
export function keptBy(filter: RequestLogFilter): (entry: KeptRequest) => boolean {
  return (entry) =>
    (filter.operation_id === undefined || entry.operation_id === filter.operation_id) &&
    (filter.status === undefined || entry.status === filter.status) &&
    (filter.fault_id === undefined || entry.fault_id === filter.fault_id) &&
    (filter.idempotency_key === undefined || entry.idempotency_key === filter.idempotency_key) &&
    (filter.request_id === undefined || entry.request_id === filter.request_id);
}

/** The entry at `place` in the request log, as a page of the log lists it. */
export function listedAt(place: number, entry: KeptRequest): Positioned<LoggedRequest> {
  const listed = { id: String(place), ...entry, at: new Date(entry.at).toISOString() };
  return { position: place, item: { id: String(place), text: JSON.stringify(listed) } };
}

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
  const matches = keptBy(filter);
  /** Up to `limit` matching entries from batch `n` towards the oldest (or the newest). */
  const walk = async (
    n: number,
    towards: "older" | "newer",
    keep: (place: number) => boolean,
    limit: number,
  ): Promise<Positioned<LoggedRequest>[]> => {
    const found: Positioned<LoggedRequest>[] = [];
    const older = towards === "older";
    let next = n;
    let batches = 1;
    while (found.length < limit) {
      const rows = await query(
        `SELECT n, body FROM request_log WHERE partner = $1 AND n ${older ? "<=" : ">="} $2 ORDER BY n ${older ? "DESC" : "ASC"} LIMIT $3`,
        [partner, next, batches],
      );
      for (const row of rows) {
        const batch = Number(row.n);
        const entries = batchEntries(String(row.body));
        for (let step = 0; step < entries.length && found.length < limit; step++) {
          const index = older ? entries.length - 1 - step : step;
          const entry = entries[index] as KeptRequest;
          if (keep(batch * PLACES_PER_BATCH + index) && matches(entry)) {
            found.push(listedAt(batch * PLACES_PER_BATCH + index, entry));
          }
        }
      }
      if (rows.length < batches) break;
      next = Number(rows.at(-1)?.n) + (older ? -1 : 1);
      batches = Math.min(batches * 2, BATCHES_READ);
    }
    return found;
  };
  return {
    async position(id) {
      if (!/^[0-9]{1,15}$/.test(id)) return undefined;
      const place = Number(id);
      const [row] = await query("SELECT body FROM request_log WHERE partner = $1 AND n = $2", [
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
