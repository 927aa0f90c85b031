// What the webhooks keep in the store: the partner's webhooks, its event log, the deliveries
// scheduled on the clock and their attempts, the receipts counted. Declared here, implemented by
// every store's transaction (src/store/) as it is, over the row types the store declares.

import type { FaultRows } from "../faults/index.js";
import type { JsonText } from "../json/json-text.js";
import type { PageSource } from "../json/pages.js";
import type { CountRows } from "../readiness/index.js";
import type { LoggedEvent, NewLoggedEvent } from "../store/event-log-rows.js";
import type { CollectionName, DeliveryEvent, Resource, Stored } from "../store/sandbox-data.js";
import type { EventLogFilter, LoggedAttempt, NewJob, Scope } from "../store/store.js";

/** The rows a broadcast works on, in the change's transaction. */
export interface BroadcastRows extends FaultRows {
  /** The partner's webhooks (the collection read whole). */
  list(collection: CollectionName): Promise<Stored[]>;
  /** Adds the event to the partner's event log. */
  appendEvent(event: NewLoggedEvent): void;
  /** Schedules a delivery on the sandbox clock. */
  schedule(job: NewJob): Promise<void>;
}

/** Everything the webhooks' routes, deliveries and stream work on. */
export interface EventRows extends BroadcastRows, CountRows {
  find(collection: CollectionName, id: string, scope: Scope): Promise<Stored | undefined>;
  insert(collection: CollectionName, resource: Resource, scope: Scope): Promise<JsonText>;
  update(collection: CollectionName, resource: Resource): Promise<void>;
  /** Adds a delivery attempt to the partner's delivery log. */
  recordEvent(event: DeliveryEvent): Promise<void>;
  /** The newest attempt of the event, if the log holds one. */
  latestAttempt(eventId: string): Promise<DeliveryEvent | undefined>;
  /** The delivery attempts that match the filter, newest first, a page at a time. */
  eventLog(filter: EventLogFilter): PageSource<LoggedAttempt>;
  /** Up to `limit` events after `cursor`, oldest first; only those of `topics` when given. */
  eventsAfter(cursor: number, topics: readonly string[], limit: number): Promise<LoggedEvent[]>;
  /** The cursor of the partner's newest event; 0 before its first. */
  lastCursor(): Promise<number>;
  /** The cursor of the oldest event the partner's log still holds; undefined when it holds none. */
  oldestCursor(): Promise<number | undefined>;
  /** The partner's events that match the filter, newest first, a page at a time. */
  eventLogPage(filter: {
    topic?: string | undefined;
    customer_id?: string | undefined;
  }): PageSource<{ id: string; text: string }>;
  /** The topic of the event at `cursor`, when the log still holds it and its id is `eventId`. */
  topicAt(cursor: number, eventId: string): Promise<string | undefined>;
}

/** What an event stream reads of the partner's log. */
export type EventLogReads = Pick<EventRows, "eventsAfter" | "lastCursor" | "oldestCursor">;
