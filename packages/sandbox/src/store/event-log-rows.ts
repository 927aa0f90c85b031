// A partner's events as a log of their own (migration 9), the same in SQLite and Postgres: every
// event a change makes, whether or not a webhook subscribes to its topic, each with a cursor, a
// per-partner sequence that orders the log as its transactions committed (the same on every
// replica of a shared sandbox and after a restart). A transaction's events are written as it ends
// (writeAppendedEvents), after its other writes: their cursors are taken from the partner's
// counter row, which stays locked until the commit, so a transaction that takes cursors after
// another commits after it and no reader ever sees a later cursor before an earlier one. Taken
// last, the lock is held only while the transaction commits, and never before a lock of a
// resource's (no deadlock with a batch).
import type { PageSource } from "../json/pages.js";
import type { Query } from "./sql-query.js";

/** An event as the change made it: its payload is the body a webhook receives. */
export interface NewLoggedEvent {
  id: string;
  topic: string;
  customerId: string | null;
  /** The event's JSON, as a delivery sends it. */
  body: string;
}

/** An event as the log holds it. */
export interface LoggedEvent {
  /** Its place in the partner's log: greater than every event committed before it. */
  cursor: number;
  topic: string;
  /** The event's JSON, as a delivery sends it. */
  body: string;
}

/** Which events a page of the log keeps: each field given must match. */
interface LoggedEventFilter {
  topic?: string | undefined;
  customer_id?: string | undefined;
}

export interface EventLogRows {
  /**
   * Adds the event to the partner's log. Cursors are given as the transaction commits, in the
   * order its events were added: a later transaction's events all come after.
   */
  appendEvent(event: NewLoggedEvent): void;
  /** Up to `limit` events after `cursor`, oldest first; only those of `topics` when given. */
  eventsAfter(cursor: number, topics: readonly string[], limit: number): Promise<LoggedEvent[]>;
  /** The cursor of the partner's newest event; 0 before its first. */
  lastCursor(): Promise<number>;
  /** The cursor of the oldest event the partner's log still holds; undefined when it holds none. */
  oldestCursor(): Promise<number | undefined>;
  /**
   * The partner's events that match the filter, newest first, a page at a time, each as its JSON
   * with its `cursor` first (the page's cursors are the events' cursors).
   */
  eventLogPage(filter: LoggedEventFilter): PageSource<{ id: string; text: string }>;
  /** The topic of the event at `cursor`, when the log still holds it and its id is `eventId`. */
  topicAt(cursor: number, eventId: string): Promise<string | undefined>;
}

/** A partner's log keeps at least this many of its newest events. */
export const LOGGED_EVENTS_KEPT = 50_000;
/** The log is trimmed when its newest cursor passes a multiple of this. */
export const TRIM_EVERY = 1_000;
/** Events written by one Postgres statement at most (its parameters stay far below the limit). */
const ROWS_PER_INSERT = 500;

/** The channel a Postgres transaction that wrote events notifies, with the partner's id. */
export const EVENTS_CHANNEL = "payments_sandbox_events";

export function eventLogRows(
  query: Query,
  partner: string,
  pending: NewLoggedEvent[],
): EventLogRows {
  return {
    appendEvent(event) {
      pending.push(event);
    },
    async eventsAfter(cursor, topics, limit) {
      const only =
        topics.length === 0
          ? ""
          : ` AND topic IN (${topics.map((_, index) => `$${index + 4}`).join(", ")})`;
      const rows = await query(
        `SELECT n, topic, body FROM event_log WHERE partner = $1 AND n > $2${only} ORDER BY n LIMIT $3`,
        [partner, cursor, Math.trunc(limit), ...topics],
      );
      return rows.map((row) => ({
        cursor: Number(row.n),
        topic: String(row.topic),
        body: String(row.body),
      }));
    },
    async lastCursor() {
      const [row] = await query("SELECT last FROM event_cursors WHERE partner = $1", [partner]);
      return Number(row?.last ?? 0);
    },
    async oldestCursor() {
      const [row] = await query("SELECT min(n) AS n FROM event_log WHERE partner = $1", [partner]);
      return row?.n === null || row?.n === undefined ? undefined : Number(row.n);
    },
    eventLogPage(filter) {
      return loggedEventSource(query, partner, filter);
    },
    async topicAt(cursor, eventId) {
      const [row] = await query(
        "SELECT topic FROM event_log WHERE partner = $1 AND n = $2 AND id = $3",
        [partner, cursor, eventId],
      );
      return row === undefined ? undefined : String(row.topic);
    },
  };
}

/** The events of the partner's log that match the filter, newest first, through its key (partner, n). */
function loggedEventSource(
  query: Query,
  partner: string,
  filter: LoggedEventFilter,
): PageSource<{ id: string; text: string }> {
  const params: unknown[] = [partner];
  const conditions = ["partner = $1"];
  for (const [column, value] of [
    ["topic", filter.topic],
    ["customer_id", filter.customer_id],
  ] as const) {
    if (value === undefined) continue;
    params.push(value);
    conditions.push(`${column} = $${params.length}`);
  }
  const where = conditions.join(" AND ");
  const place = `$${params.length + 1}`;
  const read = async (
    at: string,
    position: number | undefined,
    order: "ASC" | "DESC",
    limit: number,
  ) => {
    const rows = await query(
      `SELECT n, body FROM event_log WHERE ${where}${at} ORDER BY n ${order} LIMIT ${Math.trunc(limit)}`,
      position === undefined ? params : [...params, position],
    );
    return rows.map((row) => {
      const n = Number(row.n);
      const body = String(row.body);
      // The event as a webhook receives it, its cursor put first.
      const text = `{"cursor":"${n}",${body.slice(1)}`;
      return { position: n, item: { id: String(n), text } };
    });
  };
  return {
    async position(id) {
      if (!/^[0-9]{1,18}$/.test(id)) return undefined;
      const [found] = await read(` AND n = ${place}`, Number(id), "DESC", 1);
      return found?.position;
    },
    from: (position, limit) =>
      position === undefined
        ? read("", undefined, "DESC", limit)
        : read(` AND n <= ${place}`, position, "DESC", limit),
    before: async (position, limit) =>
      (await read(` AND n > ${place}`, position, "ASC", limit)).reverse(),
    json: (item) => item.text,
  };
}

/** Rows a SQLite statement writes at once. */
const SQLITE_ROWS = 16;

/** An INSERT of `rows` rows of the event log, each with 6 parameters. */
function insertOf(rows: number): string {
  const values = Array.from({ length: rows }, (_, row) => {
    const at = row * 6;
    return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6})`;
  });
  return `INSERT INTO event_log (partner, n, id, topic, customer_id, body) VALUES ${values.join(", ")}`;
}

const SQLITE_INSERT_MANY = insertOf(SQLITE_ROWS);
const SQLITE_INSERT_ONE = insertOf(1);

/** The parameters of `events`' rows, their cursors from `first` on. */
function rowsOf(partner: string, first: number, events: readonly NewLoggedEvent[]): unknown[] {
  return events.flatMap((event, index) => [
    partner,
    first + index,
    event.id,
    event.topic,
    event.customerId,
    event.body,
  ]);
}

/**
 * Writes the events the transaction added, with their cursors, and empties `pending`; resolves
 * to whether there were any. With `notify` (Postgres), the commit tells every process listening.
 */
export async function writeAppendedEvents(
  query: Query,
  partner: string,
  pending: NewLoggedEvent[],
  notify: boolean,
): Promise<boolean> {
  if (pending.length === 0) return false;
  const events = pending.splice(0);
  const take =
    "INSERT INTO event_cursors (partner, last) VALUES ($1, $2) ON CONFLICT (partner) DO UPDATE SET last = event_cursors.last + excluded.last RETURNING last";
  const [row] = await query(
    notify
      ? `WITH taken AS (${take}) SELECT last, pg_notify('${EVENTS_CHANNEL}', CAST($1 AS TEXT)) FROM taken`
      : take,
    [partner, events.length],
  );
  const last = Number(row?.last);
  const first = last - events.length + 1;
  if (notify) {
    // Postgres: a statement for many rows, as a round trip costs more than the rows.
    for (let start = 0; start < events.length; start += ROWS_PER_INSERT) {
      const some = events.slice(start, start + ROWS_PER_INSERT);
      const values = some.map(
        (_, index) =>
          `($1, ${first + start + index}, $${index * 4 + 2}, $${index * 4 + 3}, $${index * 4 + 4}, $${index * 4 + 5})`,
      );
      await query(
        `INSERT INTO event_log (partner, n, id, topic, customer_id, body) VALUES ${values.join(", ")}`,
        [
          partner,
          ...some.flatMap((event) => [event.id, event.topic, event.customerId, event.body]),
        ],
      );
    }
  } else {
    // SQLite, in process: statements of SQLITE_ROWS rows while there are as many, then one a
    // row (two prepared statements in all, each crossing into SQLite once for its rows).
    let index = 0;
    for (; index + SQLITE_ROWS <= events.length; index += SQLITE_ROWS) {
      await query(
        SQLITE_INSERT_MANY,
        rowsOf(partner, first + index, events.slice(index, index + SQLITE_ROWS)),
      );
    }
    for (; index < events.length; index++) {
      await query(
        SQLITE_INSERT_ONE,
        rowsOf(partner, first + index, [events[index] as NewLoggedEvent]),
      );
    }
  }
  if (
    Math.floor(last / TRIM_EVERY) > Math.floor((first - 1) / TRIM_EVERY) &&
    last > LOGGED_EVENTS_KEPT
  ) {
    await query("DELETE FROM event_log WHERE partner = $1 AND n <= $2", [
      partner,
      last - LOGGED_EVENTS_KEPT,
    ]);
  }
  return true;
}
