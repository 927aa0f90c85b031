// What the sandbox keeps its data in. One interface, two databases behind it: SQLite (a file, or
// in memory without --state) and Postgres (a sandbox shared by several processes). Every request's
// changes happen in one transaction.

import type { FaultRows } from "../faults/index.js";
import type { JsonText } from "../json/json-text.js";
import type { Page, PageQuery, PageSource } from "../json/pages.js";
import type { RateLimitRows } from "../rate-limit/index.js";
import type { CountRows } from "../readiness/index.js";
import type { RequestLogRows } from "../request-log/index.js";
import type { EventLogRows } from "./event-log-rows.js";
import type { SettingName } from "./settings.js";

/** Which delivery attempts a read of the log keeps: each field given must match. */
export interface EventLogFilter {
  /** The event's id. */
  id?: string | undefined;
  webhook_id?: string | undefined;
  topic?: string | undefined;
  /** The `customer_id` of the event sent. */
  customer_id?: string | undefined;
  delivered?: boolean | undefined;
}

/** A delivery attempt as the log stores it: its place in the log (the page cursor), its JSON. */
export interface LoggedAttempt {
  id: string;
  text: string;
}

import type {
  AnswerRecord,
  CollectionName,
  DeliveryEvent,
  IdempotentAnswer,
  Resource,
  SandboxData,
  Stored,
} from "./sandbox-data.js";

/** The X-SUB-PARTNER-ID of a request; undefined when it has none (the partner sees everything). */
export type Scope = string | undefined;

/** Filters a store answers from its indexes. */
export interface ListFilter {
  scope?: Scope;
  /** The customer a resource belongs to (its own customer_id, or the one it was created for). */
  customerId?: string;
  /** Case-insensitive part of the id, name, email or external_id. */
  search?: string;
  externalId?: string;
}

/** What the sandbox schedules on its clock: a timed lifecycle step, or a webhook delivery attempt. */
export type JobKind = "step" | "deliver";

export interface NewJob {
  /** Sandbox time (ms since the epoch) from which it is due. */
  dueAt: number;
  kind: JobKind;
  /** The resource (a step) or event (a delivery) it is about. */
  subject: string;
  body: unknown;
}

export interface ScheduledJob extends NewJob {
  seq: number;
}

/** What a job's work commits, in the transaction that removes the job. */
export type JobFinish = (tx: StoreTransaction) => Promise<void>;

/**
 * What a batch of jobs commits, in the transaction that removes them; resolves to how many of
 * them, the first ones, it did: the others stay scheduled.
 */
type BatchFinish = (tx: StoreTransaction) => Promise<number>;

/**
 * Jobs a process has taken and holds until it records them. Each part it records commits on its
 * own, so that a process that dies does again only the jobs it had taken and not yet recorded.
 */
export interface HeldJobs {
  /** In the order they are due. */
  readonly jobs: readonly ScheduledJob[];
  /**
   * Runs `finish` and removes `done` (some of the jobs, not recorded before), in one transaction;
   * resolves once it has committed.
   */
  record(done: readonly ScheduledJob[], finish: JobFinish): Promise<void>;
  /** Lets go of the jobs not recorded, for any process to take at once. */
  release(): Promise<void>;
}

/** The first answer to an idempotency key, or `pending` while its request has not finished. */
type KeyClaim = { claimed: true } | { claimed: false; first: IdempotentAnswer | "pending" };

/**
 * A transaction on one partner's data. What a feature keeps here besides the resources it declares
 * itself (its rows: faults/, rate-limit/, request-log/, readiness/); the SQL of each is in this
 * folder.
 */
export interface StoreTransaction
  extends CountRows,
    EventLogRows,
    FaultRows,
    RateLimitRows,
    RequestLogRows {
  find(collection: CollectionName, id: string, scope: Scope): Promise<Stored | undefined>;
  /** Stores a new resource; resolves to its JSON as stored, which its create answers with. */
  insert(
    collection: CollectionName,
    resource: Resource,
    scope: Scope,
    customerId?: string,
  ): Promise<JsonText>;
  /** Writes a changed resource back. */
  update(collection: CollectionName, resource: Resource): Promise<void>;
  /** Every matching resource, oldest first. */
  list(collection: CollectionName, filter?: ListFilter): Promise<Stored[]>;
  /** One page of the matching resources (see pages.ts), read through the indexes. */
  page(collection: CollectionName, filter: ListFilter, query: PageQuery): Promise<Page>;
  /** The newest resource with the external id. */
  newestByExternalId(collection: CollectionName, externalId: string): Promise<Stored | undefined>;
  /** Takes the key for this request, unless an earlier request has it. */
  claimKey(key: string, first: Omit<IdempotentAnswer, "answer">): Promise<KeyClaim>;
  /** Records the answer to a key this transaction (or an earlier one) claimed. */
  answerKey(key: string, answer: AnswerRecord): Promise<void>;
  /** Gives a key up, so that the next request with it does the work. */
  releaseKey(key: string): Promise<void>;
  /** Schedules work on the sandbox clock. */
  schedule(job: NewJob): Promise<void>;
  /** Drops the resource's pending timed steps (not one a runner holds at the moment). */
  cancelSteps(subject: string): Promise<void>;
  /** Whether any work is due by `upTo`, held by a runner or not. */
  hasDue(upTo: number): Promise<boolean>;
  /**
   * Marks the partner seen at `seenAt` (real time), making it when it is new; resolves to its
   * clock's offset, whether it was made here (another process may make it at the same time) and
   * the partner dropped to make room for it, if any. With `room`, a new partner beyond
   * `room.maxPartners` drops the one seen longest ago, when that was before `room.idleBefore`;
   * when none was, it is not made: PartnerLimitError.
   */
  enter(
    seenAt: number,
    room?: PartnerRoom,
  ): Promise<{ offsetMs: number; created: boolean; evicted?: string }>;
  /** How far (ms) the partner's sandbox time is ahead of real time. */
  clockOffset(): Promise<number>;
  /** Moves the clock's offset forward to `offsetMs`, never back; resolves to the offset stored. */
  moveClock(offsetMs: number): Promise<number>;
  recordEvent(event: DeliveryEvent): Promise<void>;
  /** The partner's recorded deliveries, newest first. */
  events(): Promise<DeliveryEvent[]>;
  /**
   * The partner's recorded deliveries that match every field of the filter, newest first, read a
   * page at a time (each as its stored JSON text), by the database: no record is parsed.
   */
  eventLog(filter: EventLogFilter): PageSource<LoggedAttempt>;
  /** The newest recorded attempt to deliver the event, if the log still holds one. */
  latestAttempt(eventId: string): Promise<DeliveryEvent | undefined>;
  /** A sandbox-wide value; undefined when none is stored. `lock` holds it until the transaction ends. */
  setting(name: SettingName, lock?: boolean): Promise<string | undefined>;
  /** Stores a sandbox-wide value, replacing the one there. */
  setSetting(name: SettingName, value: string): Promise<void>;
  /** Stores the value unless one is there already (a concurrent first write keeps one of them). */
  initSetting(name: SettingName, value: string): Promise<void>;
  /**
   * Replaces everything of the partner's (resources, keys, events, scheduled work, settings) with
   * the data; keeps its clock.
   */
  replaceAll(data: SandboxData): Promise<void>;
  /** Adds the data to the partner's, when it has none (`enter` has just made it). */
  fill(data: SandboxData): Promise<void>;
}

/** One partner's part of the store: what a request of its key works in. */
export interface PartnerStore {
  readonly partner: string;
  readonly shared: boolean;
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /** See SandboxStore.read. */
  read<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T>;
}

export interface SandboxStore {
  /** True when other processes may use the same data (Postgres). */
  readonly shared: boolean;
  /**
   * A number that moves whenever this process may have changed the partner's data (a write, a
   * failed transaction); another partner's writes leave it be. Undefined where other processes
   * change the data too, unseen (Postgres).
   */
  version(partner: string): number | undefined;
  /**
   * Runs `work` in one transaction on the partner's data (a partner id, see partner.ts): all its
   * changes commit together, or none on a throw. Nothing of another partner's is in reach.
   */
  transaction<T>(partner: string, work: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /**
   * Runs `work`, which only reads, on what has committed of the partner's data. A SQLite file
   * reads it on a connection of its own, without waiting for the transactions queued on the one
   * that writes (a clock advance's batches); the other stores run it as a transaction.
   */
  read<T>(partner: string, work: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /**
   * Takes up to `limit` of the partner's jobs of `kind` due by `upTo` that no process holds, in
   * the order they are due, `perform`s them, then runs what `perform` resolved to and removes the
   * jobs it did, in one transaction (the timed steps). Jobs whose process dies before that
   * transaction commits stay scheduled, to be taken again. Resolves to the number of jobs done: 0
   * when none was due.
   */
  runBatch(
    partner: string,
    kind: JobKind,
    upTo: number,
    limit: number,
    perform: (jobs: ScheduledJob[]) => Promise<BatchFinish>,
  ): Promise<number>;
  /**
   * Takes up to `limit` of the partner's jobs of `kind` due by `upTo` that no process holds, in
   * the order they are due, and holds them for this process until it records or releases them.
   * Jobs held by a process that dies are taken again: on SQLite (one process) at its next start,
   * on Postgres once its hold lapses (HOLD_MS in postgres-held-jobs.ts, renewed while it lives).
   */
  holdJobs(partner: string, kind: JobKind, upTo: number, limit: number): Promise<HeldJobs>;
  /** The partners that have work due by their own clock at `realNow`. */
  duePartners(realNow: number): Promise<string[]>;
  /**
   * Calls `listener` with the partner each time a transaction that added events to a partner's
   * log has committed: in any process that shares the store (Postgres), or this one; with
   * undefined when any partner's may have (commits that went unheard). Resolves to the
   * listener's removal.
   */
  onEventsCommitted(listener: (partner: string | undefined) => void): () => void;
  /** Removes every partner last seen before `seenBefore` (real time), all its data; resolves to their ids. */
  purgeIdle(seenBefore: number): Promise<string[]>;
  close(): Promise<void>;
}

/** How many partners a store keeps, and which of them may make room for a new one. */
export interface PartnerRoom {
  maxPartners: number;
  /** A partner last seen before this (real time) may be dropped for a new one. */
  idleBefore: number;
}

/** A new partner the store has no room for: it keeps `maxPartners` and none is idle. */
export class PartnerLimitError extends Error {
  override name = "PartnerLimitError";
  readonly maxPartners: number;

  constructor(maxPartners: number) {
    super(`the sandbox keeps at most ${maxPartners} partners`);
    this.maxPartners = maxPartners;
  }
}

/**
 * A change the store has no room for: the in-memory database is at its limit, or the disk that
 * holds the database is full. The mock answers 507 with the message.
 */
export class StoreFullError extends Error {
  override name = "StoreFullError";
}

/** Idempotency keys are kept this long (as Stripe keeps its keys). */
export const KEY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** A partner's event log keeps at least this many of its newest delivery attempts (and their events). */
export const EVENTS_KEPT = 10_000;
/** A partner's request log keeps its newest this many requests. */
export const REQUESTS_KEPT = 10_000;
