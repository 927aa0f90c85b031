// A batch of the clock's jobs on Postgres in a few statements. Each statement costs a round trip
// and node-postgres's own work (about 0.3 ms here), where SQLite in process costs microseconds:
// one statement per read and write made a day's advance 37 times slower on Postgres than on SQLite.
// So the batch reads and locks its jobs' subjects at once; the first read of its customers, or of
// one kind of their resources, reads it for all of the batch's customers in one statement. It
// answers its reads from those rows, keeps its changes, and writes them at its end in one
// statement each: the changed resources, the cancelled and the new scheduled work, the event log.
// Anything else it is asked writes what it keeps first, then runs as in sqlTransaction.

import { merged, type ReadinessCount } from "../readiness/readiness-rows.js";
import { addCountsAtOnce } from "./readiness-counts.js";
import {
  COLLECTIONS,
  type CollectionName,
  type DeliveryEvent,
  type Stored,
} from "./sandbox-data.js";
import type { Query, Row } from "./sql-query.js";
import {
  type Dialect,
  indexedColumns,
  type SqlTransaction,
  sqlTransaction,
  storedOf,
  type Upkeep,
} from "./sql-store.js";
import { EVENTS_KEPT, type ListFilter, type NewJob } from "./store.js";

/**
 * A batch's transaction: its reads answered from the rows it loaded, its writes kept to the end;
 * its events written last of all (writeEvents), once no other row is to be locked.
 */
export interface BatchTransaction extends SqlTransaction {
  /** Reads and locks the resources with these ids (the jobs' subjects), and notes their customers. */
  load(ids: readonly string[]): Promise<void>;
  /** Writes what the batch changed; the transaction may go on after. */
  flush(): Promise<void>;
  /**
   * What the batch kept, when it is only delivery attempts and counts to add (a delivery that
   * arrived): written at once without the rest of a batch (see postgres-held-jobs.ts).
   */
  keptAttempts(): KeptAttempts | undefined;
}

/** Delivery attempts and counts to add, all that a batch kept. */
export interface KeptAttempts {
  events: DeliveryEvent[];
  counts: ReadinessCount[];
}

/** A resource row as the batch holds it. */
interface HeldRow {
  seq: number;
  collection: CollectionName;
  /** Its id as stored (Postgres keeps a U+0000 as U+FFFD, see postgres-store.ts). */
  id: string;
  subPartnerId: string | null;
  linkedCustomer: string | null;
  /** The customer_id column: the customer it was created for, else its own customer_id. */
  customerId: string | null;
  body: string;
  /** Read FOR UPDATE: no other transaction changes it until this one ends. */
  locked: boolean;
  /** What the batch changed and has not written yet. */
  change?: RowChange;
}

/** A changed resource's columns, as update() writes them. */
interface RowChange {
  /** Its own customer_id (the customer it was created for stands before it). */
  ownCustomer: string | null;
  externalId: string | null;
  search: string;
  body: string;
}

const ROW = "seq, collection, id, sub_partner_id, linked_customer, customer_id, body";

/**
 * @param dialect Postgres's: the batch's SQL uses arrays (`= ANY`, `unnest`), and no search index
 *   is kept beside the rows
 */
export function postgresBatch(
  query: Query,
  dialect: Dialect,
  upkeep: Upkeep,
  partner: string,
  counting = true,
): BatchTransaction {
  const inner = sqlTransaction(query, dialect, upkeep, partner, undefined, counting);
  const rows = new HeldRows();
  /** Collections read whole, and the customers whose resources of a collection were read. */
  const wholeCollections = new Set<CollectionName>();
  const customersRead = new Set<string>();
  /**
   * The customers of the batch's subjects. A step reads the same things of each (a customer, its
   * signings, …): the first read of a kind reads it for them all, in one statement.
   */
  const batchCustomers = new Set<string>();
  let batchCustomersLocked = false;
  /**
   * Reads the batch's customers' resources of `collection` (without a lock, as list() reads), or
   * with none given, the customers themselves, locked as find() locks.
   */
  const loadBatchCustomers = async (collection?: CollectionName) => {
    const customers = [...batchCustomers];
    if (collection === undefined) {
      if (batchCustomersLocked) return;
      batchCustomersLocked = true;
      const locked = await query(
        `SELECT ${ROW} FROM resources WHERE partner = $1 AND collection = 'customers' AND id = ANY($2::text[]) ORDER BY seq${dialect.lockRows}`,
        [partner, customers],
      );
      for (const row of locked) hold(row, true);
      return;
    }
    const theirs = await query(
      `SELECT ${ROW} FROM resources WHERE partner = $1 AND collection = $2 AND customer_id = ANY($3::text[])`,
      [partner, collection, customers],
    );
    for (const row of theirs) hold(row, false);
    for (const customer of customers) customersRead.add(keyOf(collection, customer));
  };
  const newJobs: NewJob[] = [];
  const cancelled = new Set<string>();
  const newEvents: DeliveryEvent[] = [];
  const settings = new Map<string, string | undefined>();
  const newCounts: ReadinessCount[] = [];
  const newMarks: ReadinessCount[] = [];
  let appended = false;

  const hold = (row: Row, locked: boolean) => rows.hold(heldRowOf(row, locked));
  const matching = (collection: CollectionName, scope: string | undefined, customer?: string) =>
    rows
      .of(collection, customer)
      .filter((row) => scope === undefined || row.subPartnerId === scope)
      .sort((a, b) => a.seq - b.seq)
      .map(storedOfHeld);

  const flush = async () => {
    if (cancelled.size > 0) {
      await query(
        `DELETE FROM scheduled_work WHERE seq IN (SELECT seq FROM scheduled_work WHERE partner = $1 AND kind = 'step' AND subject = ANY($2::text[])${dialect.skipLocked})`,
        [partner, [...cancelled]],
      );
      cancelled.clear();
    }
    const changed = rows.changed();
    if (changed.length > 0) {
      await writeRows(query, changed);
      rows.written();
    }
    if (newJobs.length > 0) {
      await insertJobs(query, partner, newJobs.splice(0));
    }
    if (newEvents.length > 0) {
      await insertEvents(query, partner, newEvents.splice(0));
    }
    if (newCounts.length > 0) {
      await addCountsAtOnce(query, partner, merged(newCounts.splice(0)));
    }
    if (newMarks.length > 0) {
      await addCountsAtOnce(query, partner, newMarks.splice(0), "mark");
    }
  };
  /** `work` after what the batch keeps is written. */
  const written =
    <A extends unknown[], R>(work: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await flush();
      return work(...args);
    };
  /** Rows of a collection it no longer knows all of (a resource was made outside the batch's rows). */
  const forget = (collection: CollectionName) => {
    wholeCollections.delete(collection);
    for (const key of customersRead) {
      if (key.startsWith(`${collection}\0`)) customersRead.delete(key);
    }
  };

  const batch: BatchTransaction = {
    ...inner,
    async load(ids) {
      if (ids.length === 0) return;
      const subjects = await query(
        `SELECT ${ROW} FROM resources WHERE partner = $1 AND collection = ANY($2::text[]) AND id = ANY($3::text[]) ORDER BY seq${dialect.lockRows}`,
        [partner, COLLECTIONS, ids],
      );
      for (const row of subjects) {
        hold(row, true);
        const customer = row.collection === "customers" ? row.id : row.customer_id;
        if (typeof customer === "string") batchCustomers.add(customer);
      }
    },
    flush,
    keptAttempts() {
      const more =
        appended ||
        newJobs.length > 0 ||
        cancelled.size > 0 ||
        newMarks.length > 0 ||
        rows.changed().length > 0;
      return more ? undefined : { events: newEvents, counts: merged(newCounts) };
    },
    appendEvent(event) {
      appended = true;
      inner.appendEvent(event);
    },
    async find(collection, id, scope) {
      if (collection === "customers" && batchCustomers.has(id)) await loadBatchCustomers();
      let row = rows.get(collection, id);
      if (row?.locked !== true) {
        if (row?.change !== undefined) await flush();
        const [found] = await query(
          `SELECT ${ROW} FROM resources WHERE partner = $1 AND collection = $2 AND id = $3${dialect.lockRows}`,
          [partner, collection, id],
        );
        if (found === undefined) return undefined;
        hold(found, true);
        row = rows.get(collection, id);
      }
      if (row === undefined || (scope !== undefined && row.subPartnerId !== scope))
        return undefined;
      return storedOfHeld(row);
    },
    async update(collection, resource) {
      const row = rows.get(collection, resource.id);
      if (row === undefined) {
        await flush();
        return inner.update(collection, resource);
      }
      const [own, externalId, search, body] = indexedColumns(resource, undefined);
      rows.change(row, { ownCustomer: own, externalId, search, body });
    },
    async list(collection, filter: ListFilter = {}) {
      const { scope, customerId, search, externalId } = filter;
      if (search !== undefined || externalId !== undefined) {
        await flush();
        return inner.list(collection, filter);
      }
      if (wholeCollections.has(collection)) return matching(collection, scope, customerId);
      if (customerId === undefined) {
        const all = await query(
          `SELECT ${ROW} FROM resources WHERE partner = $1 AND collection = $2 ORDER BY seq`,
          [partner, collection],
        );
        for (const row of all) hold(row, false);
        wholeCollections.add(collection);
      } else if (!customersRead.has(keyOf(collection, customerId))) {
        if (batchCustomers.has(customerId)) {
          await loadBatchCustomers(collection);
          return matching(collection, scope, customerId);
        }
        const theirs = await query(
          `SELECT ${ROW} FROM resources WHERE partner = $1 AND collection = $2 AND customer_id = $3 ORDER BY seq`,
          [partner, collection, customerId],
        );
        for (const row of theirs) hold(row, false);
        customersRead.add(keyOf(collection, customerId));
      }
      return matching(collection, scope, customerId);
    },
    async insert(collection, resource, scope, customerId) {
      await flush();
      forget(collection);
      return inner.insert(collection, resource, scope, customerId);
    },
    async schedule(job) {
      newJobs.push(job);
    },
    async cancelSteps(subject) {
      for (let index = newJobs.length - 1; index >= 0; index--) {
        const job = newJobs[index];
        if (job?.kind === "step" && job.subject === subject) newJobs.splice(index, 1);
      }
      cancelled.add(subject);
    },
    async recordEvent(event) {
      newEvents.push(event);
    },
    async addCounts(counts) {
      if (counting) newCounts.push(...counts);
    },
    async markCounts(counts) {
      if (counting) newMarks.push(...counts);
    },
    raiseCounts: written(inner.raiseCounts),
    removeCounts: written(inner.removeCounts),
    counts: written(inner.counts),
    countsOf: written(inner.countsOf),
    async setting(name, lock = false) {
      if (!lock && settings.has(name)) return settings.get(name);
      const value = await inner.setting(name, lock);
      settings.set(name, value);
      return value;
    },
    async setSetting(name, value) {
      await inner.setSetting(name, value);
      settings.set(name, value);
    },
    async initSetting(name, value) {
      await inner.initSetting(name, value);
      settings.delete(name);
    },
    page: written(inner.page),
    newestByExternalId: written(inner.newestByExternalId),
    hasDue: written(inner.hasDue),
    events: written(inner.events),
    latestAttempt: written(inner.latestAttempt),
    eventLog(filter) {
      const source = inner.eventLog(filter);
      return {
        ...source,
        position: written(source.position),
        from: written(source.from),
        before: written(source.before),
      };
    },
    async replaceAll(data) {
      await flush();
      clear();
      await inner.replaceAll(data);
    },
    async fill(data) {
      await flush();
      clear();
      await inner.fill(data);
    },
  };
  const clear = () => {
    rows.clear();
    batchCustomers.clear();
    wholeCollections.clear();
    customersRead.clear();
    settings.clear();
  };
  return batch;
}

/** The rows a batch holds, by collection and by customer, and which of them it changed. */
class HeldRows {
  private readonly rows = new Map<string, HeldRow>();
  /** The keys of each collection's rows, and of each collection's rows of a customer. */
  private readonly groups = new Map<string, Set<string>>();
  private readonly dirty = new Set<HeldRow>();

  get(collection: CollectionName, id: string): HeldRow | undefined {
    return this.rows.get(keyOf(collection, nulFree(id)));
  }

  /** Holds a row read; a row the batch changed keeps its change, and a lock taken is kept. */
  hold(row: HeldRow): void {
    const key = keyOf(row.collection, row.id);
    const before = this.rows.get(key);
    if (before?.change !== undefined) {
      before.locked ||= row.locked;
      return;
    }
    if (before !== undefined) this.ungroup(key, before);
    row.locked ||= before?.locked === true;
    this.rows.set(key, row);
    this.group(key, row);
  }

  change(row: HeldRow, change: RowChange): void {
    const key = keyOf(row.collection, row.id);
    this.ungroup(key, row);
    row.customerId = row.linkedCustomer ?? change.ownCustomer;
    row.body = change.body;
    row.change = change;
    this.group(key, row);
    this.dirty.add(row);
  }

  /** The collection's rows, or its rows of the customer. */
  of(collection: CollectionName, customerId?: string): HeldRow[] {
    const keys = this.groups.get(
      customerId === undefined ? collection : keyOf(collection, customerId),
    );
    return [...(keys ?? [])].map((key) => this.rows.get(key) as HeldRow);
  }

  changed(): HeldRow[] {
    return [...this.dirty];
  }

  written(): void {
    for (const row of this.dirty) delete row.change;
    this.dirty.clear();
  }

  clear(): void {
    this.rows.clear();
    this.groups.clear();
    this.dirty.clear();
  }

  private group(key: string, row: HeldRow): void {
    for (const name of groupsOf(row)) {
      const keys = this.groups.get(name) ?? new Set<string>();
      keys.add(key);
      this.groups.set(name, keys);
    }
  }

  private ungroup(key: string, row: HeldRow): void {
    for (const name of groupsOf(row)) this.groups.get(name)?.delete(key);
  }
}

function groupsOf(row: HeldRow): string[] {
  return row.customerId === null
    ? [row.collection]
    : [row.collection, keyOf(row.collection, row.customerId)];
}

// The batch's writes send their rows as one JSON parameter: JSON.stringify is native, where
// node-postgres escapes an array parameter element by element in JavaScript. Postgres text cannot
// hold U+0000 (see withoutNul in postgres-store.ts), and a JSON "\u0000" would not become text.

/** The changed rows, in one statement. */
async function writeRows(query: Query, changed: HeldRow[]): Promise<void> {
  const values = changed.map(({ seq, change }) => ({
    seq,
    own_customer: nulFree(change?.ownCustomer ?? null),
    external_id: nulFree(change?.externalId ?? null),
    search: nulFree(change?.search ?? ""),
    body: change?.body,
  }));
  // By seq, which every row was read with (under the partner's filter): the primary key's
  // lookups, whatever the planner knows of the table (a new sandbox's statistics lag far behind
  // its rows, and a join on the partner's rows reads them all). The customer a resource was
  // created for stands before its own customer_id, as in update().
  await query(
    `UPDATE resources AS r SET customer_id = COALESCE(r.linked_customer, v.own_customer), external_id = v.external_id, search = v.search, body = v.body
     FROM json_to_recordset($2::json) AS v(seq bigint, own_customer text, external_id text, search text, body text)
     WHERE r.seq = ANY($1::bigint[]) AND r.seq = v.seq`,
    [changed.map((row) => row.seq), JSON.stringify(values)],
  );
}

/** The new scheduled work, in one statement, in the order it was scheduled (its seq). */
async function insertJobs(query: Query, partner: string, jobs: NewJob[]): Promise<void> {
  const values = jobs.map((job, n) => ({
    n,
    due_at: job.dueAt,
    kind: job.kind,
    subject: nulFree(job.subject),
    body: JSON.stringify(job.body),
  }));
  await query(
    `INSERT INTO scheduled_work (partner, due_at, kind, subject, body)
     SELECT $1, v.due_at, v.kind, v.subject, v.body
     FROM json_to_recordset($2::json) AS v(n integer, due_at bigint, kind text, subject text, body text)
     ORDER BY v.n`,
    [partner, JSON.stringify(values)],
  );
}

/** The new attempts at the end of the partner's log, in one statement; its newest EVENTS_KEPT kept. */
async function insertEvents(query: Query, partner: string, events: DeliveryEvent[]): Promise<void> {
  const values = events.map((event, n) => ({ n, body: JSON.stringify(event) }));
  const numbered = await query(
    `INSERT INTO events (partner, n, body)
     SELECT CAST($1 AS TEXT), last.n + v.n + 1, v.body
     FROM (SELECT COALESCE(MAX(n), 0) AS n FROM events WHERE partner = $1) AS last,
       json_to_recordset($2::json) AS v(n integer, body text)
     ORDER BY v.n RETURNING n`,
    [partner, JSON.stringify(values)],
  );
  const newest = Math.max(...numbered.map((row) => Number(row.n)));
  if (newest > EVENTS_KEPT) {
    await query("DELETE FROM events WHERE partner = $1 AND n <= $2", [
      partner,
      newest - EVENTS_KEPT,
    ]);
  }
}

/** The text as a text column holds it (see HeldRow.id). */
function nulFree<T extends string | null>(text: T): T {
  return (text === null ? null : text.replaceAll("\0", "\uFFFD")) as T;
}

function heldRowOf(row: Row, locked: boolean): HeldRow {
  return {
    seq: Number(row.seq),
    collection: String(row.collection) as CollectionName,
    id: String(row.id),
    subPartnerId: (row.sub_partner_id as string | null) ?? null,
    linkedCustomer: (row.linked_customer as string | null) ?? null,
    customerId: (row.customer_id as string | null) ?? null,
    body: String(row.body),
    locked,
  };
}

function storedOfHeld(row: HeldRow): Stored {
  return storedOf({
    body: row.body,
    sub_partner_id: row.subPartnerId,
    linked_customer: row.linkedCustomer,
  });
}

function keyOf(collection: CollectionName, id: string): string {
  return `${collection}\0${id}`;
}
