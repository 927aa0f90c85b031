// What a change to the sandbox's resources works with, and whom its events are for.

import type { Clock } from "../clock/index.js";
import type { Events } from "../events/index.js";
import type { Stored } from "../store/sandbox-data.js";
import type { StoreTransaction } from "../store/store.js";
import type { Lifecycle } from "./lifecycles.js";

/** What a change works with: the transaction it happens in, the clock, the event queue. */
export interface ChangeContext {
  /** The partner whose data changes (its id, which new resources carry as partner_id). */
  partnerId: string;
  tx: StoreTransaction;
  clock: Clock;
  events: Events;
}

/** The customer an event about the resource is for. */
export function customerIdOf(lifecycle: Lifecycle, stored: Stored): string | null {
  if (lifecycle.collection === "customers") return stored.resource.id;
  const own = stored.resource.customer_id;
  return typeof own === "string" ? own : (stored.customer_id ?? null);
}
