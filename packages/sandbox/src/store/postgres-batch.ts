// A batch of the clock's jobs on Postgres in a few statements. Each statement costs a round trip
// and node-postgres's own work (about 0.3 ms here), where SQLite in process costs microseconds:
// one statement per read and write made a day's advance 37 times slower on Postgres (issue 44).
// So the batch reads and locks the rows its jobs work on at once (the subjects, their customers,
// and each such customer's resources in every collection), answers its reads from them, keeps its
// changes, and writes them at its end in one statement each: the changed resources, the cancelled
// and the new scheduled work, the event log. Anything else it is asked writes what it keeps first,
// then runs as in sqlTransaction.
import {
  type Dialect,
  indexedColumns,
  type PurgeSchedule,
  type Query,
  type Row,
  sqlTransaction,
  storedOf,
} from "./sql-store.js";
import { COLLECTIONS, type CollectionName, type DeliveryEvent, type Stored } from "./state.js";
import { EVENTS_KEPT, type ListFilter, type NewJob, type StoreTransaction } from "./store.js";

/** A batch's transaction: its reads answered from the rows it loaded, its writes kept to the end. */
export interface BatchTransaction extends StoreTransaction {
  /** Reads and locks the resources with these ids, their customers and those customers' resources. */
  load(ids: readonly string[]): Promise<void>;
  /** Writes what the batch changed; the transaction may go on after. */
  flush(): Promise<void>;
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
  /** Changed by the batch and not written yet. */
  dirty: boolean;
}

const ROW = "seq, collection, id, sub_partner_id, linked_customer, customer_id, body";

/**
 * @param dialect Postgres's: the batch's SQL uses arrays (`= ANY`, `unnest`), and no search index
 *   is kept beside the rows
 */
export function postgresBatch(
  query: Query,
  dialect: Dialect,
  purgeDue: PurgeSchedule,
  partner: string,
): BatchTransaction {
  const inner = sqlTransaction(query, dialect, purgeDue, partner);
  const rows = new Map<string, HeldRow>();
  /** Collections read whole, and the customers whose resources of a collection were read. */
  const wholeCollections = new Set<CollectionName>();
  const customersRead = new Set<string>();
  const newJobs: NewJob[] = [];
  const cancelled = new Set<string>();
  const newEvents: DeliveryEvent[] = [];
  const settings = new Map<string, string | undefined>();

  const hold = (row: Row, locked: boolean) => {
    const held = heldRowOf(row, locked);
    const key = keyOf(held.collection, held.id);
    const before = rows.get(key);
    // A row the batch changed keeps its change; otherwise the newer read wins (and a lock, once
    // taken, is held to the end).
    if (before?.dirty) before.locked ||= locked;
    else rows.set(key, { ...held, locked: locked || before?.locked === true });
  };
  const matching = (collection: CollectionName, scope: string | undefined, customer?: string) =>
    [...rows.values()]
      .filter(
        (row) =>
          row.collection === collection &&
          (scope === undefined || row.subPartnerId === scope) &&
          (customer === undefined || row.customerId === customer),
      )
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
    const changed = [...rows.values()].filter((row) => row.dirty);
    if (changed.length > 0) {
      await writeRows(query, partner, changed);
      for (const row of changed) row.dirty = false;
    }
    if (newJobs.length > 0) {
      await insertJobs(query, partner, newJobs.splice(0));
    }
    if (newEvents.length > 0) {
      await insertEvents(query, partner, newEvents.splice(0));
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
      for (const row of subjects) hold(row, true);
      const customers = [
        ...new Set(
          subjects.map((row) =>
            row.collection === "customers" ? String(row.id) : (row.customer_id as string | null),
          ),
        ),
      ].filter((customer): customer is string => customer !== null);
      if (customers.length === 0) return;
      const theirs = await query(
        `SELECT ${ROW} FROM resources WHERE partner = $1 AND ((collection = 'customers' AND id = ANY($2::text[])) OR (collection = ANY($3::text[]) AND customer_id = ANY($2::text[]))) ORDER BY seq${dialect.lockRows}`,
        [partner, customers, COLLECTIONS],
      );
      for (const row of theirs) hold(row, true);
      for (const customer of customers) {
        for (const collection of COLLECTIONS) customersRead.add(keyOf(collection, customer));
      }
    },
    flush,
    async find(collection, id, scope) {
      const key = keyOf(collection, storedId(id));
      let row = rows.get(key);
      if (row?.locked !== true) {
        if (row?.dirty) await flush();
        const [found] = await query(
          `SELECT ${ROW} FROM resources WHERE partner = $1 AND collection = $2 AND id = $3${dialect.lockRows}`,
          [partner, collection, id],
        );
        if (found === undefined) return undefined;
        hold(found, true);
        row = rows.get(key);
      }
      if (row === undefined || (scope !== undefined && row.subPartnerId !== scope))
        return undefined;
      return storedOfHeld(row);
    },
    async update(collection, resource) {
      const row = rows.get(keyOf(collection, storedId(resource.id)));
      if (row === undefined) {
        await flush();
        return inner.update(collection, resource);
      }
      const [own, , , body] = indexedColumns(resource, undefined);
      row.customerId = row.linkedCustomer ?? own;
      row.body = body;
      row.dirty = true;
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
    wholeCollections.clear();
    customersRead.clear();
    settings.clear();
  };
  return batch;
}

/** The changed rows, in one statement. */
async function writeRows(query: Query, partner: string, changed: HeldRow[]): Promise<void> {
  const columns = changed.map((row) => {
    const resource = JSON.parse(row.body);
    const [own, externalId, search] = indexedColumns(resource, undefined);
    return [row.collection, row.id, own, externalId, search, row.body] as const;
  });
  const column = (index: number) => columns.map((values) => values[index]);
  // The customer a resource was created for stands before its own customer_id, as in update().
  await query(
    `UPDATE resources AS r SET customer_id = COALESCE(r.linked_customer, v.own_customer), external_id = v.external_id, search = v.search, body = v.body
     FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS v(collection, id, own_customer, external_id, search, body)
     WHERE r.partner = $1 AND r.collection = v.collection AND r.id = v.id`,
    [partner, column(0), column(1), column(2), column(3), column(4), column(5)],
  );
}

/** The new scheduled work, in one statement, in the order it was scheduled (its seq). */
async function insertJobs(query: Query, partner: string, jobs: NewJob[]): Promise<void> {
  await query(
    `INSERT INTO scheduled_work (partner, due_at, kind, subject, body)
     SELECT $1, v.due_at, v.kind, v.subject, v.body
     FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS v(due_at, kind, subject, body, n)
     ORDER BY v.n`,
    [
      partner,
      jobs.map((job) => job.dueAt),
      jobs.map((job) => job.kind),
      jobs.map((job) => job.subject),
      jobs.map((job) => JSON.stringify(job.body)),
    ],
  );
}

/** The new attempts at the end of the partner's log, in one statement; its newest EVENTS_KEPT kept. */
async function insertEvents(query: Query, partner: string, events: DeliveryEvent[]): Promise<void> {
  const numbered = await query(
    `INSERT INTO events (partner, n, body)
     SELECT CAST($1 AS TEXT), last.n + v.n, v.body
     FROM (SELECT COALESCE(MAX(n), 0) AS n FROM events WHERE partner = $1) AS last,
       unnest($2::text[]) WITH ORDINALITY AS v(body, n)
     ORDER BY v.n RETURNING n`,
    [partner, events.map((event) => JSON.stringify(event))],
  );
  const newest = Math.max(...numbered.map((row) => Number(row.n)));
  if (newest > EVENTS_KEPT) {
    await query("DELETE FROM events WHERE partner = $1 AND n <= $2", [
      partner,
      newest - EVENTS_KEPT,
    ]);
  }
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
    dirty: false,
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

/** The id as the id column holds it (see HeldRow.id). */
function storedId(id: string): string {
  return id.replaceAll("\0", "\uFFFD");
}
