// What a route of the test mode works with (the caller's partner's), and the request it answers.
import type { SandboxClock } from "../clock/clock.js";
import type { ArmedFaults, DeclaredStatuses } from "../faults/index.js";
import type { ChangeContext } from "../lifecycle/change-context.js";
import type { PartnerClockRunner } from "../lifecycle/scheduler.js";
import type { ReadinessReport } from "../readiness/index.js";
import type { PartnerStore, StoreTransaction } from "../store/store.js";
import type { Events } from "../webhooks/events.js";

/** What the routes work with: the caller's partner's. */
export interface ControlServices {
  store: PartnerStore;
  clock: SandboxClock;
  events: Events;
  scheduler: PartnerClockRunner;
  /** The change context of a transaction. */
  changes(tx: StoreTransaction): ChangeContext;
  /** Back to what the partner started with, in the transaction. */
  reset(tx: StoreTransaction): Promise<void>;
  /** The partner's armed fault rules and rate limit, as this process knows them. */
  faults: ArmedFaults;
  /** The statuses each operation of the API declares. */
  declaredStatuses: DeclaredStatuses;
  /** Writes the finished requests waiting: their request-log entries and readiness counts. */
  flushRequests(): Promise<void>;
  /** The partner's readiness report, every request it made counted. */
  readiness(): Promise<ReadinessReport>;
}

/** A request the engine has routed to an operation of the test-mode document and validated. */
export interface ControlRequest {
  /** Path parameters, percent-decoded. */
  params: Record<string, string>;
  query: Record<string, string>;
  /** The body, as the document's schema admits it (an empty object for a route without one). */
  body: Record<string, unknown>;
}
