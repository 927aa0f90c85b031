// The sandbox's data in SQL, the same for SQLite and Postgres: one table of resources (their JSON
// with the columns listing needs, each indexed), the idempotency keys, the event log, the sandbox
// clock and the work scheduled on it. The databases differ only in how a query is sent.

import { JsonText } from "../json/json-text.js";
import { type PageSource, type Positioned, page } from "../json/pages.js";
import type { EmptyCollections } from "./empty-collections.js";
import { eventLogRows, type NewLoggedEvent, writeAppendedEvents } from "./event-log-rows.js";
import { faultRows } from "./fault-rows.js";
import { EXAMPLE_PARTNER_ID } from "./partner.js";
import { countRows, type MarkedCounts, NO_COUNT_ROWS } from "./readiness-counts.js";
import {
  type BatchNumbers,
  emptyRequestLog,
  LogTrims,
  requestLogRows,
} from "./request-log-rows.js";
import {
  answerRecordJson,
  type CollectionName,
  type DeliveryEvent,
  type IdempotentAnswer,
  type Resource,
  type SandboxData,
  type Stored,
} from "./sandbox-data.js";
import type { SettingName } from "./settings.js";
import type { Query, Row } from "./sql-query.js";
import type { EventLogFilter, LoggedAttempt } from "./store.js";
import {
  EVENTS_KEPT,
  type JobKind,
  KEY_RETENTION_MS,
  type ListFilter,
  PartnerLimitError,
  type PartnerRoom,
  type ScheduledJob,
  type StoreTransaction,
} from "./store.js";

/** A claimed key still without an answer after this long belonged to a process that died. */
export const ABANDONED_CLAIM_MS = 60_000;

/**
 * Removes the partner's ($3) keys past their retention and its claims abandoned without an answer:
 * a claim purges its own partner's keys only, so that no key's write waits on removing another's.
 */
export const PURGE_KEYS =
  "DELETE FROM idempotency WHERE partner = $3 AND (created_at < $1 OR (answer IS NULL AND created_at < $2))";

/**
 * Takes a key: a new row, or the row of a key past its retention or abandoned ($6 and $7 as in
 * PURGE_KEYS), which the purge may not have removed yet. Returns no row when the key is taken.
 */
const CLAIM_KEY = `INSERT INTO idempotency (partner, idem_key, method, path, fingerprint, created_at) VALUES ($8, $1, $2, $3, $4, $5)
  ON CONFLICT (partner, idem_key) DO UPDATE SET method = excluded.method, path = excluded.path,
    fingerprint = excluded.fingerprint, answer = NULL, created_at = excluded.created_at
  WHERE idempotency.created_at < $6 OR (idempotency.answer IS NULL AND idempotency.created_at < $7)
  RETURNING idem_key`;

/** CLAIM_KEY with the claim's answer ($9) written in the same row. */
const CLAIM_ANSWERED_KEY = `INSERT INTO idempotency (partner, idem_key, method, path, fingerprint, created_at, answer) VALUES ($8, $1, $2, $3, $4, $5, $9)
  ON CONFLICT (partner, idem_key) DO UPDATE SET method = excluded.method, path = excluded.path,
    fingerprint = excluded.fingerprint, answer = excluded.answer, created_at = excluded.created_at
  WHERE idempotency.created_at < $6 OR (idempotency.answer IS NULL AND idempotency.created_at < $7)`;

/**
 * The keys a transaction has claimed but not yet written, where only this process writes (SQLite,
 * whose transactions run one after another, so no other can claim a key in between): a claim then
 * reads the key, and its row is written once, with the answer when the transaction has it, rather
 * than written and then changed. One a transaction ends without answering is written unanswered
 * (writeClaims), as CLAIM_KEY writes it.
 */
export type PendingClaims = Map<string, PendingClaim>;

interface PendingClaim {
  partner: string;
  first: Omit<IdempotentAnswer, "answer">;
  /** CLAIM_KEY's $5, $6 and $7, as the claim read them. */
  now: number;
  expired: number;
  abandoned: number;
}

/** CLAIM_KEY's parameters for a pending claim. */
const claimParams = (key: string, claim: PendingClaim) => [
  key,
  claim.first.method,
  claim.first.path,
  claim.first.fingerprint,
  claim.now,
  claim.expired,
  claim.abandoned,
  claim.partner,
];

/** Writes the claims the transaction made and did not answer, and forgets them. */
export async function writeClaims(query: Query, claims: PendingClaims): Promise<void> {
  for (const [key, claim] of claims) await query(CLAIM_KEY, claimParams(key, claim));
  claims.clear();
}

/** Removes the partner's keys past their retention, and its claims abandoned, at `now` (wall clock). */
async function purgeOldKeys(query: Query, partner: string, now: number): Promise<void> {
  await query(PURGE_KEYS, [now - KEY_RETENTION_MS, now - ABANDONED_CLAIM_MS, partner]);
}

/** A store's claims purge old keys at most this often, rather than each claim. */
const PURGE_EVERY_MS = 1_000;

/** Whether the partner's claim at `now` purges: once per PURGE_EVERY_MS for each partner. */
type PurgeSchedule = (now: number, partner: string) => boolean;

/** Partners whose last purge is known; past this many, they start afresh. */
const PURGES_KNOWN = 10_000;

function purgeSchedule(): PurgeSchedule {
  const lastOf = new Map<string, number>();
  return (now, partner) => {
    const last = lastOf.get(partner) ?? Number.NEGATIVE_INFINITY;
    if (now >= last && now - last < PURGE_EVERY_MS) return false;
    if (!lastOf.has(partner) && lastOf.size >= PURGES_KNOWN) lastOf.clear();
    lastOf.set(partner, now);
    return true;
  };
}

/** What a store spaces out over its transactions: the purge of old keys, the trim of the request log. */
export interface Upkeep {
  keysPurgeDue: PurgeSchedule;
  logTrims: LogTrims;
}

/** A store's upkeep, made once with the store. */
export function upkeepOf(): Upkeep {
  return { keysPurgeDue: purgeSchedule(), logTrims: new LogTrims() };
}

/** Where the databases differ. */
export interface Dialect {
  /** Appended to a read that the transaction goes on to change: " FOR UPDATE" or nothing. */
  lockRows: string;
  /** Appended to a read of rows that the transaction takes unless another holds them. */
  skipLocked: string;
  /** An index of the `search` column, where the database has one; otherwise `LIKE` scans. */
  searchIndex?: SearchIndex;
  /** SQL reading a row's JSON `body`. */
  json: JsonSql;
  /**
   * A statement that holds the making of new partners to one transaction at a time, until it
   * ends (Postgres, where transactions of several processes run at once); none where they run
   * one after another.
   */
  partnersLock?: string;
  /** A commit that wrote events notifies the processes listening (Postgres's LISTEN/NOTIFY). */
  eventsChannel?: true;
}

/** SQL expressions over the JSON text in a row's `body` column, at a path of property names. */
interface JsonSql {
  /** The string at the path (NULL when there is none). */
  text(path: readonly string[]): string;
  /** True when the path holds JSON true. */
  isTrue(path: readonly string[]): string;
}

export interface SearchIndex {
  /** A condition on `seq`: the resource's search text contains the term `placeholder` holds. */
  matches(placeholder: string): string;
  /** The parameter for a (lower-case) term, searched in the partner's collection only. */
  pattern(term: string, partner: string, collection: CollectionName): string;
  /** Indexes a row's search text; `replacing` when the row had one indexed before. */
  write(
    query: Query,
    row: { partner: string; collection: CollectionName; seq: number },
    search: string,
    replacing: boolean,
  ): Promise<void>;
  /** Brings the index of the partner's collection up to date before a search of it reads it. */
  update(query: Query, partner: string, collection: CollectionName): Promise<void>;
  /** Drops the partner's rows from the index. */
  clear(query: Query, partner: string): Promise<void>;
}

/** Where a transaction's statements go: its query function, the database's dialect, the partner. */
interface SqlContext {
  query: Query;
  dialect: Dialect;
  partner: string;
  /** Where only this process changes the data: the partners' collections known to be empty. */
  empties: EmptyCollections | undefined;
  /** Where only this process changes the data: the claims its transaction has yet to write. */
  claims: PendingClaims | undefined;
}

/** A transaction's operations, and the writing of the events it added, as it ends. */
export interface SqlTransaction extends StoreTransaction {
  /** Writes the events added (see event-log-rows.ts); resolves to whether there were any. */
  writeEvents(): Promise<boolean>;
}

/** What a store where only this process changes the data (SQLite) keeps between transactions. */
export interface OnlyProcess {
  empties: EmptyCollections;
  claims: PendingClaims;
  marked: MarkedCounts;
  /** The events the running transaction added. */
  events: NewLoggedEvent[];
  /** The number of each partner's newest request-log batch. */
  batchNumbers: BatchNumbers;
}

/** The store's operations on the partner's data, inside the transaction `query` belongs to. */
export function sqlTransaction(
  query: Query,
  dialect: Dialect,
  upkeep: Upkeep,
  partner: string,
  only?: OnlyProcess,
  counting = true,
): SqlTransaction {
  const context: SqlContext = {
    query,
    dialect,
    partner,
    empties: only?.empties,
    claims: only?.claims,
  };
  const clock = partnerClock(context);
  const events = only?.events ?? [];
  const tx: SqlTransaction = {
    ...resourceRows(context),
    ...idempotencyKeys(context, upkeep.keysPurgeDue),
    ...scheduledWork(context),
    ...clock,
    async enter(seenAt, room) {
      const entered = await clock.enter(seenAt, room);
      // A partner made anew (its key seen again after a purge) has no counter marked.
      if (entered.created) only?.marked.forgetPartner(partner);
      // Marked seen (at most once a minute): its old keys go too, should it claim no more. Keys
      // age on the wall clock, as `seenAt` is (see claimKey), not on the sandbox's.
      else await purgeOldKeys(query, partner, seenAt);
      return entered;
    },
    ...eventLog(context),
    ...eventLogRows(query, partner, events),
    writeEvents: () => writeAppendedEvents(query, partner, events, dialect.eventsChannel === true),
    ...partnerSettings(context),
    ...faultRows(query, partner),
    ...requestLogRows(query, partner, upkeep.logTrims, only?.batchNumbers),
    ...(counting ? countRows(query, partner, only?.marked) : NO_COUNT_ROWS),
    replaceAll: async (data) => {
      await removePartnerData(context.query, context.dialect.searchIndex, context.partner);
      // Its fault rules and rate limit are gone: every process learns so at its next request.
      await query(
        "UPDATE sandbox_clock SET faults_version = faults_version + 1 WHERE partner = $1",
        [partner],
      );
      await fillPartnerData(context, tx, data);
    },
    fill: (data) => fillPartnerData(context, tx, data),
  };
  return tx;
}

/** The partner's resources: one by id, a new one, a change, a list, a page, by external id. */
function resourceRows({
  query,
  dialect,
  partner,
  empties,
}: SqlContext): Pick<
  StoreTransaction,
  "find" | "insert" | "update" | "list" | "page" | "newestByExternalId"
> {
  const { lockRows, searchIndex } = dialect;
  const whereOf = (collection: CollectionName, filter: ListFilter) =>
    filtered(partner, collection, filter, searchIndex);
  const searchable = async (collection: CollectionName, filter: ListFilter) => {
    if (filter.search !== undefined) await searchIndex?.update(query, partner, collection);
  };
  const indexed = async (
    collection: CollectionName,
    rows: Row[],
    search: string,
    replacing: boolean,
  ) => {
    const seq = rows[0]?.seq;
    if (searchIndex && seq !== undefined) {
      await searchIndex.write(query, { partner, collection, seq: Number(seq) }, search, replacing);
    }
  };
  const select = `SELECT seq, id, sub_partner_id, linked_customer, body FROM resources`;
  return {
    async find(collection, id, scope) {
      const where = whereOf(collection, { scope });
      const rows = await query(
        `${select} WHERE ${where.sql} AND id = $${where.params.length + 1}${lockRows}`,
        [...where.params, id],
      );
      return rows[0] && storedOf(rows[0]);
    },
    async insert(collection, resource, scope, customerId) {
      empties?.filled(partner, collection);
      const columns = indexedColumns(resource, customerId);
      const rows = await query(
        `INSERT INTO resources (partner, collection, id, sub_partner_id, linked_customer, customer_id, external_id, search, body)
         VALUES ($9, $1, $2, $3, $4, $5, $6, $7, $8) RETURNING seq`,
        [collection, resource.id, scope ?? null, customerId ?? null, ...columns, partner],
      );
      await indexed(collection, rows, columns[2], false);
      return new JsonText(columns[3]);
    },
    async update(collection, resource) {
      // One statement: the customer a resource was created for (linked_customer) stands before
      // its own customer_id, as indexedColumns puts it for an insert.
      const columns = indexedColumns(resource, undefined);
      const rows = await query(
        `UPDATE resources SET customer_id = COALESCE(linked_customer, $3), external_id = $4, search = $5, body = $6
         WHERE partner = $7 AND collection = $1 AND id = $2 RETURNING seq`,
        [collection, resource.id, ...columns, partner],
      );
      await indexed(collection, rows, columns[2], true);
    },
    async list(collection, filter = {}) {
      const whole = isWhole(filter);
      if (whole && empties?.has(partner, collection)) return [];
      await searchable(collection, filter);
      const where = whereOf(collection, filter);
      const rows = await query(`${select} WHERE ${where.sql} ORDER BY seq`, where.params);
      if (whole && rows.length === 0) empties?.found(partner, collection);
      return rows.map(storedOf);
    },
    async page(collection, filter, pageQuery) {
      await searchable(collection, filter);
      return page(indexedSource(query, whereOf(collection, filter)), pageQuery);
    },
    async newestByExternalId(collection, externalId) {
      const rows = await query(
        `${select} WHERE partner = $3 AND collection = $1 AND external_id = $2 ORDER BY seq DESC LIMIT 1`,
        [collection, externalId, partner],
      );
      return rows[0] && storedOf(rows[0]);
    },
  };
}

/** The partner's idempotency keys: claimed, answered, given up. */
function idempotencyKeys(
  { query, partner, claims }: SqlContext,
  purgeDue: PurgeSchedule,
): Pick<StoreTransaction, "claimKey" | "answerKey" | "releaseKey"> {
  const keys: Pick<StoreTransaction, "claimKey" | "answerKey" | "releaseKey"> = {
    async claimKey(key, first) {
      // A claim is abandoned when its process died, which only real time tells, and advancing the
      // sandbox must not forget a replay.
      const now = Date.now(); // keys age on the wall clock, not the sandbox's
      // Kept 24 hours; a claim left without an answer (its process died) is given up after a minute.
      const expired = now - KEY_RETENTION_MS;
      const abandoned = now - ABANDONED_CLAIM_MS;
      // The purge only frees the space: CLAIM_KEY itself treats this key's old row as gone.
      if (purgeDue(now, partner)) await purgeOldKeys(query, partner, now);
      if (claims !== undefined) {
        const row = await keyRow(query, partner, key);
        // Gone as CLAIM_KEY's condition has it: past its retention, or abandoned unanswered.
        const createdAt = Number(row?.created_at);
        if (
          row === undefined ||
          createdAt < expired ||
          (row.answer === null && createdAt < abandoned)
        ) {
          claims.set(key, { partner, first, now, expired, abandoned });
          return { claimed: true };
        }
        return { claimed: false, first: firstAnswerOf(row) };
      }
      // A second transaction inserting the same key waits here until the first one ends
      // (Postgres), or runs after it (SQLite): either way it then finds the first's row.
      const inserted = await query(CLAIM_KEY, [
        key,
        first.method,
        first.path,
        first.fingerprint,
        now,
        expired,
        abandoned,
        partner,
      ]);
      if (inserted.length > 0) return { claimed: true };
      const row = await keyRow(query, partner, key);
      if (row === undefined) return keys.claimKey(key, first);
      return { claimed: false, first: firstAnswerOf(row) };
    },
    async answerKey(key, answer) {
      const claim = claims?.get(key);
      if (claim !== undefined) {
        claims?.delete(key);
        await query(CLAIM_ANSWERED_KEY, [...claimParams(key, claim), answerRecordJson(answer)]);
        return;
      }
      await query("UPDATE idempotency SET answer = $2 WHERE partner = $3 AND idem_key = $1", [
        key,
        answerRecordJson(answer),
        partner,
      ]);
    },
    async releaseKey(key) {
      // A claim not written yet is given up by forgetting it.
      if (claims?.delete(key)) return;
      await query(
        "DELETE FROM idempotency WHERE partner = $2 AND idem_key = $1 AND answer IS NULL",
        [key, partner],
      );
    },
  };
  return keys;
}

/** The key's row, if the partner has one. */
async function keyRow(query: Query, partner: string, key: string): Promise<Row | undefined> {
  const [row] = await query(
    "SELECT method, path, fingerprint, answer, created_at FROM idempotency WHERE partner = $2 AND idem_key = $1",
    [key, partner],
  );
  return row;
}

/** The first answer a key's row holds, or `pending` while its request has not finished. */
function firstAnswerOf(row: Row): IdempotentAnswer | "pending" {
  return row.answer === null
    ? "pending"
    : ({
        method: row.method,
        path: row.path,
        fingerprint: row.fingerprint,
        answer: JSON.parse(String(row.answer)),
      } as IdempotentAnswer);
}

/** The work scheduled on the partner's clock. */
function scheduledWork({
  query,
  dialect,
  partner,
}: SqlContext): Pick<StoreTransaction, "schedule" | "cancelSteps" | "hasDue"> {
  return {
    async schedule(job) {
      await query(
        "INSERT INTO scheduled_work (partner, due_at, kind, subject, body) VALUES ($5, $1, $2, $3, $4)",
        [job.dueAt, job.kind, job.subject, JSON.stringify(job.body), partner],
      );
    },
    async cancelSteps(subject) {
      await query(
        `DELETE FROM scheduled_work WHERE seq IN (SELECT seq FROM scheduled_work WHERE partner = $2 AND subject = $1 AND kind = 'step'${dialect.skipLocked})`,
        [subject, partner],
      );
    },
    async hasDue(upTo) {
      const rows = await query(
        "SELECT seq FROM scheduled_work WHERE partner = $2 AND kind IN ('deliver', 'step') AND due_at <= $1 LIMIT 1",
        [upTo, partner],
      );
      return rows.length > 0;
    },
  };
}

/** The partner's clock: made on first sight, read, moved forward. */
function partnerClock({
  query,
  dialect,
  partner,
}: SqlContext): Pick<StoreTransaction, "enter" | "clockOffset" | "moveClock"> {
  const clock: Pick<StoreTransaction, "enter" | "clockOffset" | "moveClock"> = {
    async enter(seenAt, room) {
      const [row] = await query("SELECT offset_ms, seen_at FROM sandbox_clock WHERE partner = $1", [
        partner,
      ]);
      if (row !== undefined) {
        if (Number(row.seen_at) < seenAt) {
          await query("UPDATE sandbox_clock SET seen_at = $2 WHERE partner = $1", [
            partner,
            seenAt,
          ]);
        }
        return { offsetMs: Number(row.offset_ms), created: false };
      }
      const evicted = room === undefined ? undefined : await makeRoom(query, dialect, room);
      // A second process making the same partner waits here for the first, then makes nothing.
      const made = await query(
        "INSERT INTO sandbox_clock (partner, offset_ms, seen_at) VALUES ($1, 0, $2) ON CONFLICT (partner) DO NOTHING RETURNING partner",
        [partner, seenAt],
      );
      return {
        offsetMs: made.length > 0 ? 0 : await clock.clockOffset(),
        created: made.length > 0,
        ...(evicted !== undefined && { evicted }),
      };
    },
    async clockOffset() {
      const [row] = await query("SELECT offset_ms FROM sandbox_clock WHERE partner = $1", [
        partner,
      ]);
      return Number(row?.offset_ms ?? 0);
    },
    async moveClock(offsetMs) {
      await query("UPDATE sandbox_clock SET offset_ms = $1 WHERE partner = $2 AND offset_ms < $1", [
        Math.round(offsetMs),
        partner,
      ]);
      return clock.clockOffset();
    },
  };
  return clock;
}

/** The partner's log of delivery attempts, its newest EVENTS_KEPT kept. */
function eventLog({
  query,
  dialect,
  partner,
}: SqlContext): Pick<StoreTransaction, "recordEvent" | "events" | "eventLog" | "latestAttempt"> {
  return {
    async recordEvent(event) {
      // n counts the partner's records, so that its log keeps its own newest EVENTS_KEPT.
      const [row] = await query(
        "INSERT INTO events (partner, n, body) SELECT CAST($1 AS TEXT), COALESCE(MAX(n), 0) + 1, CAST($2 AS TEXT) FROM events WHERE partner = $1 RETURNING n",
        [partner, JSON.stringify(event)],
      );
      const oldest = Number(row?.n) - EVENTS_KEPT;
      if (oldest > 0) {
        await query("DELETE FROM events WHERE partner = $1 AND n <= $2", [partner, oldest]);
      }
    },
    async events() {
      const rows = await query(
        "SELECT body FROM events WHERE partner = $1 ORDER BY n DESC, seq DESC",
        [partner],
      );
      return rows.map((row) => JSON.parse(String(row.body)) as DeliveryEvent);
    },
    eventLog(filter) {
      return eventLogSource(query, dialect.json, partner, filter);
    },
    async latestAttempt(eventId) {
      // A record's JSON starts with the event's id (record in events.ts writes it first); no
      // index: redelivery is rare, and the log holds at most EVENTS_KEPT records.
      const [row] = await query(
        "SELECT body FROM events WHERE partner = $2 AND body LIKE $1 ESCAPE '\\' ORDER BY n DESC, seq DESC LIMIT 1",
        [`${escapeLike(JSON.stringify({ id: eventId }).slice(0, -1))},%`, partner],
      );
      return row && (JSON.parse(String(row.body)) as DeliveryEvent);
    },
  };
}

/** The partner's sandbox-wide values. */
function partnerSettings({
  query,
  dialect,
  partner,
}: SqlContext): Pick<StoreTransaction, "setting" | "setSetting" | "initSetting"> {
  const { lockRows } = dialect;
  return {
    async setting(name, lock = false) {
      const [row] = await query(
        `SELECT value FROM sandbox_settings WHERE partner = $2 AND name = $1${lock ? lockRows : ""}`,
        [name, partner],
      );
      return row === undefined ? undefined : String(row.value);
    },
    async setSetting(name, value) {
      await query(
        "INSERT INTO sandbox_settings (partner, name, value) VALUES ($3, $1, $2) ON CONFLICT (partner, name) DO UPDATE SET value = excluded.value",
        [name, value, partner],
      );
    },
    async initSetting(name, value) {
      await query(
        "INSERT INTO sandbox_settings (partner, name, value) VALUES ($3, $1, $2) ON CONFLICT (partner, name) DO NOTHING",
        [name, value, partner],
      );
    },
  };
}

/** Replaces the partner's data (resources, keys, events, scheduled work, settings) with `data`. */
/** Adds the data to the partner's. */
async function fillPartnerData(
  { query, partner }: SqlContext,
  tx: StoreTransaction,
  data: SandboxData,
): Promise<void> {
  for (const [collection, list] of Object.entries(data.collections)) {
    for (const stored of list) {
      await tx.insert(
        collection as CollectionName,
        stored.resource,
        stored.sub_partner_id ?? undefined,
        stored.customer_id,
      );
    }
  }
  const now = Date.now(); // keys age on the wall clock (see claimKey)
  for (const [key, first] of Object.entries(data.idempotency)) {
    await query(
      `INSERT INTO idempotency (partner, idem_key, method, path, fingerprint, answer, created_at)
         VALUES ($7, $1, $2, $3, $4, $5, $6)`,
      [
        key,
        first.method,
        first.path,
        first.fingerprint,
        JSON.stringify(first.answer),
        now,
        partner,
      ],
    );
  }
  for (const event of data.events) await tx.recordEvent(event);
  for (const [name, value] of Object.entries(data.settings ?? {})) {
    await tx.setSetting(name as SettingName, value);
  }
}

/**
 * The tables that hold a partner's data, beside its clock, its events' counter and its request
 * log: a reset and a purge empty them all.
 */
const PARTNER_TABLES = [
  "resources",
  "idempotency",
  "events",
  "event_log",
  "scheduled_work",
  "sandbox_settings",
  "faults",
  "rate_limits",
];

/** Deletes every row of the partner's but its clock's, and empties its request log. */
async function removePartnerData(
  query: Query,
  searchIndex: SearchIndex | undefined,
  partner: string,
): Promise<void> {
  await searchIndex?.clear(query, partner);
  for (const table of PARTNER_TABLES) {
    await query(`DELETE FROM ${table} WHERE partner = $1`, [partner]);
  }
  await emptyRequestLog(query, partner);
}

/**
 * The partners with work due by their own clock at `realNow`: read from the scheduled work, so
 * that its cost follows the work waiting, not the partners stored.
 */
export async function duePartners(query: Query, realNow: number): Promise<string[]> {
  const rows = await query(
    `SELECT DISTINCT w.partner FROM scheduled_work w JOIN sandbox_clock c ON c.partner = w.partner
      WHERE w.due_at <= $1 + c.offset_ms`,
    [realNow],
  );
  return rows.map((row) => String(row.partner));
}

/**
 * Room for one more partner: none needed below `maxPartners` (the example key's aside); at it,
 * the partner seen longest ago is removed if it was seen before `idleBefore` (resolves to its
 * id), else PartnerLimitError.
 */
async function makeRoom(
  query: Query,
  dialect: Dialect,
  { maxPartners, idleBefore }: PartnerRoom,
): Promise<string | undefined> {
  if (dialect.partnersLock !== undefined) await query(dialect.partnersLock);
  // The example key's partner, which holds the seed, is neither counted nor dropped.
  const [count] = await query("SELECT count(*) AS n FROM sandbox_clock WHERE partner <> $1", [
    EXAMPLE_PARTNER_ID,
  ]);
  if (Number(count?.n ?? 0) < maxPartners) return undefined;
  const [idle] = await query(
    "SELECT partner FROM sandbox_clock WHERE seen_at < $1 AND partner <> $2 ORDER BY seen_at LIMIT 1",
    [idleBefore, EXAMPLE_PARTNER_ID],
  );
  if (idle === undefined) throw new PartnerLimitError(maxPartners);
  const partner = String(idle.partner);
  await removePartner(query, dialect.searchIndex, partner);
  return partner;
}

/** Removes the partner: its data, its readiness counters (a reset keeps those) and its clock. */
async function removePartner(
  query: Query,
  searchIndex: SearchIndex | undefined,
  partner: string,
): Promise<void> {
  await removePartnerData(query, searchIndex, partner);
  await query("DELETE FROM request_log WHERE partner = $1", [partner]);
  await query("DELETE FROM readiness_counts WHERE partner = $1", [partner]);
  await query("DELETE FROM event_cursors WHERE partner = $1", [partner]);
  await query("DELETE FROM sandbox_clock WHERE partner = $1", [partner]);
}

/** Removes the partners last seen before `seenBefore`, all their data with them. */
export async function purgeIdle(
  query: Query,
  searchIndex: SearchIndex | undefined,
  seenBefore: number,
): Promise<string[]> {
  const rows = await query("SELECT partner FROM sandbox_clock WHERE seen_at < $1", [seenBefore]);
  const partners = rows.map((row) => String(row.partner));
  for (const partner of partners) await removePartner(query, searchIndex, partner);
  return partners;
}

/**
 * The partner's earliest jobs of `kind` due by `upTo`, at most `limit` in order, taken with
 * `skipLocked` where the database can.
 */
export async function dueJobs(
  query: Query,
  partner: string,
  kind: JobKind,
  upTo: number,
  limit: number,
  skipLocked: string,
): Promise<ScheduledJob[]> {
  const rows = await query(
    `SELECT seq, due_at, kind, subject, body FROM scheduled_work WHERE partner = $3 AND kind = $4 AND due_at <= $1 ORDER BY due_at, seq LIMIT $2${skipLocked}`,
    [upTo, limit, partner, kind],
  );
  return rows.map(scheduledJobOf);
}

/** A row of scheduled_work as a job. */
export function scheduledJobOf(row: Row): ScheduledJob {
  return {
    seq: Number(row.seq),
    dueAt: Number(row.due_at),
    kind: String(row.kind) as ScheduledJob["kind"],
    subject: String(row.subject),
    body: JSON.parse(String(row.body)),
  };
}

/** Removes the jobs, in one statement. */
export async function removeJobs(query: Query, jobs: readonly ScheduledJob[]): Promise<number> {
  if (jobs.length === 0) return 0;
  const list = jobs.map((_, index) => `$${index + 1}`).join(", ");
  const removed = await query(
    `DELETE FROM scheduled_work WHERE seq IN (${list}) RETURNING seq`,
    jobs.map((job) => job.seq),
  );
  return removed.length;
}

/** customer_id, external_id, search and body: what the indexes and the listing read. */
export function indexedColumns(
  resource: Resource,
  linkedCustomer: string | undefined,
): [customerId: string | null, externalId: string | null, search: string, body: string] {
  const own = typeof resource.customer_id === "string" ? resource.customer_id : undefined;
  const externalId = typeof resource.external_id === "string" ? resource.external_id : null;
  const search = ["id", "name", "email", "external_id"]
    .map((field) => String(resource[field] ?? "").toLowerCase())
    .join("\n");
  return [linkedCustomer ?? own ?? null, externalId, search, JSON.stringify(resource)];
}

/** Whether the filter keeps every resource of the collection. */
function isWhole({ scope, customerId, search, externalId }: ListFilter): boolean {
  return (
    scope === undefined &&
    customerId === undefined &&
    search === undefined &&
    externalId === undefined
  );
}

export function storedOf(row: Row): Stored {
  const stored: Stored = {
    resource: JSON.parse(String(row.body)),
    sub_partner_id: (row.sub_partner_id as string | null) ?? null,
  };
  if (typeof row.linked_customer === "string") stored.customer_id = row.linked_customer;
  return stored;
}

function filtered(
  partner: string,
  collection: CollectionName,
  filter: ListFilter,
  searchIndex: SearchIndex | undefined,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [partner, collection];
  const clauses = ["partner = $1", "collection = $2"];
  const add = (clause: (placeholder: string) => string, value: unknown) => {
    params.push(value);
    clauses.push(clause(`$${params.length}`));
  };
  if (filter.scope !== undefined) add((p) => `sub_partner_id = ${p}`, filter.scope);
  if (filter.customerId !== undefined) add((p) => `customer_id = ${p}`, filter.customerId);
  if (filter.externalId !== undefined) add((p) => `external_id = ${p}`, filter.externalId);
  const term = filter.search?.toLowerCase();
  if (term !== undefined && searchIndex !== undefined) {
    add(searchIndex.matches, searchIndex.pattern(term, partner, collection));
  } else if (term !== undefined) {
    add((p) => `search LIKE ${p} ESCAPE '\\'`, `%${escapeLike(term)}%`);
  }
  return { sql: clauses.join(" AND "), params };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** A stored resource as a page lists it: its id, and its JSON as stored. */
interface StoredText {
  id: string;
  json: string;
}

/**
 * The row's id, as its body has it: Postgres keeps a U+0000 in the id column as U+FFFD (see
 * postgres-store.ts), but the JSON body keeps it escaped.
 */
function idOf(row: Row): string {
  const id = String(row.id);
  return id.includes("\uFFFD") ? String(JSON.parse(String(row.body)).id) : id;
}

/** A page source reading windows of the filtered list through the indexes, by `seq`. */
function indexedSource(
  query: Query,
  where: { sql: string; params: unknown[] },
): PageSource<StoredText> {
  const next = `$${where.params.length + 1}`;
  const limit = `$${where.params.length + 2}`;
  const select = `SELECT seq, id, body FROM resources WHERE ${where.sql}`;
  const positioned = (rows: Row[]): Positioned<StoredText>[] =>
    rows.map((row) => ({
      position: Number(row.seq),
      item: { id: idOf(row), json: String(row.body) },
    }));
  return {
    async position(id) {
      const [row] = await query(`SELECT seq FROM resources WHERE ${where.sql} AND id = ${next}`, [
        ...where.params,
        id,
      ]);
      return row === undefined ? undefined : Number(row.seq);
    },
    async from(position, count) {
      const rows = await query(`${select} AND seq >= ${next} ORDER BY seq LIMIT ${limit}`, [
        ...where.params,
        position ?? 0,
        count,
      ]);
      return positioned(rows);
    },
    async before(position, count) {
      const rows = await query(`${select} AND seq < ${next} ORDER BY seq DESC LIMIT ${limit}`, [
        ...where.params,
        position,
        count,
      ]);
      return positioned(rows).reverse();
    },
    // Stored by JSON.stringify (indexedColumns), so the text is what serialising it again makes.
    json: (item) => item.json,
  };
}

/**
 * The attempts of the partner's log that match the filter, newest first (as `events()` orders
 * them: by `n`, then `seq`, the order of the partner's index, so that a page reads no further
 * than it needs). An attempt's cursor is its `attempt_id`: its `seq` counts every partner's
 * attempts, which a cursor would tell the partner. One written before attempts had ids has its
 * `seq`.
 */
function eventLogSource(
  query: Query,
  json: JsonSql,
  partner: string,
  filter: EventLogFilter,
): PageSource<LoggedAttempt> {
  const params: unknown[] = [partner];
  const conditions = ["partner = $1"];
  const equal = (path: string[], value: string | undefined) => {
    if (value === undefined) return;
    params.push(value);
    conditions.push(`${json.text(path)} = $${params.length}`);
  };
  equal(["id"], filter.id);
  equal(["webhook_id"], filter.webhook_id);
  equal(["topic"], filter.topic);
  equal(["payload", "customer_id"], filter.customer_id);
  if (filter.delivered !== undefined) {
    const delivered = json.isTrue(["delivered"]);
    conditions.push(filter.delivered ? delivered : `NOT ${delivered}`);
  }
  const where = conditions.join(" AND ");
  /** Each attempt's `n`, by its `seq`, as the reads met them: a place in the log is both. */
  const nOf = new Map<number, number>();
  const attemptId = json.text(["attempt_id"]);
  const read = async (place: string, at: unknown[], order: "ASC" | "DESC", limit: number) => {
    const rows = await query(
      `SELECT n, seq, ${attemptId} AS attempt_id, body FROM events WHERE ${where}${place} ORDER BY n ${order}, seq ${order} LIMIT ${Math.trunc(limit)}`,
      [...params, ...at],
    );
    return rows.map((row) => {
      nOf.set(Number(row.seq), Number(row.n));
      const id = String(row.attempt_id ?? row.seq);
      return { position: Number(row.seq), item: { id, text: String(row.body) } };
    });
  };
  const n = `$${params.length + 1}`;
  const seq = `$${params.length + 2}`;
  const at = (position: number) => [nOf.get(position) ?? 0, position];
  return {
    async position(id) {
      const [found] = /^[0-9]{1,15}$/.test(id)
        ? await read(
            ` AND seq = $${params.length + 1} AND ${attemptId} IS NULL`,
            [Number(id)],
            "DESC",
            1,
          )
        : await read(` AND ${attemptId} = $${params.length + 1}`, [id], "DESC", 1);
      return found?.position;
    },
    // From a place on is from it towards the oldest; before it, the newer ones.
    from: (position, limit) =>
      position === undefined
        ? read("", [], "DESC", limit)
        : read(` AND (n < ${n} OR (n = ${n} AND seq <= ${seq}))`, at(position), "DESC", limit),
    before: async (position, limit) =>
      (
        await read(` AND (n > ${n} OR (n = ${n} AND seq > ${seq}))`, at(position), "ASC", limit)
      ).reverse(),
    json: (item) => item.text,
  };
}
