// What an event sent by a change needs of the store: the partner's webhooks, its event log, the
// deliveries scheduled on the clock. Declared here, implemented by every store's transaction
// (src/store/) as it is.
import type { FaultRows } from "../faults/index.js";
import type { NewLoggedEvent } from "../store/event-log-rows.js";
import type { CollectionName, Stored } from "../store/sandbox-data.js";
import type { NewJob } from "../store/store.js";

/** The rows a broadcast works on, in the change's transaction. */
export interface BroadcastRows extends FaultRows {
  /** The partner's webhooks (the collection read whole). */
  list(collection: CollectionName): Promise<Stored[]>;
  /** Adds the event to the partner's event log. */
  appendEvent(event: NewLoggedEvent): void;
  /** Schedules a delivery on the sandbox clock. */
  schedule(job: NewJob): Promise<void>;
}
