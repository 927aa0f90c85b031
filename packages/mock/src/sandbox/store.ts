// What the sandbox keeps its data in. One interface, two databases behind it: SQLite (a file, or
// in memory without --state) and Postgres (a sandbox shared by several processes). Every request's
// changes happen in one transaction.
import type { Answer, JsonText } from "./answer.js";
import type { PageQuery } from "./pages.js";
import type { SettingName } from "./settings.js";
import type {
  CollectionName,
  DeliveryEvent,
  IdempotentAnswer,
  Resource,
  SandboxData,
  Stored,
} from "./state.js";

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

/** A webhook event waiting in the outbox for its delivery. */
export interface OutboxItem {
  webhookId: string;
  url: string;
  payload: {
    id: string;
    topic: string;
    created_at: string;
    customer_id: string | null;
    data: unknown;
  };
}

/** The first answer to an idempotency key, or `pending` while its request has not finished. */
export type KeyClaim = { claimed: true } | { claimed: false; first: IdempotentAnswer | "pending" };

export interface StoreTransaction {
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
  page(collection: CollectionName, filter: ListFilter, query: PageQuery): Promise<Answer>;
  /** The newest resource with the external id. */
  newestByExternalId(collection: CollectionName, externalId: string): Promise<Stored | undefined>;
  /** Takes the key for this request, unless an earlier request has it. */
  claimKey(key: string, first: Omit<IdempotentAnswer, "answer">): Promise<KeyClaim>;
  /** Records the answer to a key this transaction (or an earlier one) claimed. */
  answerKey(key: string, answer: Answer): Promise<void>;
  /** Gives a key up, so that the next request with it does the work. */
  releaseKey(key: string): Promise<void>;
  /** Queues events for delivery once the transaction commits. */
  enqueue(items: OutboxItem[]): Promise<void>;
  recordEvent(event: DeliveryEvent): Promise<void>;
  /** The recorded deliveries, newest first. */
  events(): Promise<DeliveryEvent[]>;
  /** A sandbox-wide value; undefined when none is stored. `lock` holds it until the transaction ends. */
  setting(name: SettingName, lock?: boolean): Promise<string | undefined>;
  /** Stores a sandbox-wide value, replacing the one there. */
  setSetting(name: SettingName, value: string): Promise<void>;
  /** Stores the value unless one is there already (a concurrent first write keeps one of them). */
  initSetting(name: SettingName, value: string): Promise<void>;
  /** Replaces everything (resources, keys, events, outbox, settings) with the data. */
  replaceAll(data: SandboxData): Promise<void>;
}

export interface SandboxStore {
  /** True when other processes may use the same data (Postgres). */
  readonly shared: boolean;
  /** Runs `work` in one transaction: all its changes commit together, or none on a throw. */
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /**
   * Takes the oldest undelivered event that no process holds, `send`s it, then `record`s the
   * outcome and removes the event from the outbox in one transaction. A process that dies
   * before that transaction commits leaves the event in the outbox, to be sent again (same
   * event id). Resolves false when there was nothing to take.
   */
  deliverNext<O>(
    send: (item: OutboxItem) => Promise<O>,
    record: (tx: StoreTransaction, item: OutboxItem, outcome: O) => Promise<void>,
  ): Promise<boolean>;
  close(): Promise<void>;
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
/** The event log keeps at least this many of the newest deliveries. */
export const EVENTS_KEPT = 10_000;
