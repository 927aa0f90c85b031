// The partner's events as a log of their own: every event a change makes, whether or not a
// webhook subscribes to its topic, each with a cursor that orders the log as its transactions
// committed. The cursor is a per-partner sequence in the store, so it is the same on every replica
// of a shared sandbox and after a restart: a reader that resumes after a cursor misses nothing.

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
  /** The topic of the event with this id, when the log still holds it. */
  topicOf(eventId: string): Promise<string | undefined>;
}
