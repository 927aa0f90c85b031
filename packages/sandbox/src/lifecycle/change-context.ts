// What a change to the sandbox's resources works with, and whom its events are for.

import type { Clock } from "../clock/index.js";
import type { BroadcastRows, Events } from "../events/index.js";
import type { CountRows } from "../readiness/index.js";
import type { CollectionName, Resource, Stored } from "../store/sandbox-data.js";
import type { ListFilter, Scope } from "../store/store.js";
import type { Lifecycle } from "./lifecycles.js";

/** What a change does to the store: the resources it walks, their counts, their events and steps. */
export interface ChangeRows extends BroadcastRows, Pick<CountRows, "markCounts"> {
  find(collection: CollectionName, id: string, scope: Scope): Promise<Stored | undefined>;
  list(collection: CollectionName, filter?: ListFilter): Promise<Stored[]>;
  update(collection: CollectionName, resource: Resource): Promise<void>;
  /** Drops the resource's pending timed steps. */
  cancelSteps(subject: string): Promise<void>;
}

/** What a change works with: the transaction it happens in, the clock, the event queue. */
export interface ChangeContext<Rows extends ChangeRows = ChangeRows> {
  /** The partner whose data changes (its id, which new resources carry as partner_id). */
  partnerId: string;
  tx: Rows;
  clock: Clock;
  events: Events;
}

/** The customer an event about the resource is for. */
export function customerIdOf(lifecycle: Lifecycle, stored: Stored): string | null {
  if (lifecycle.collection === "customers") return stored.resource.id;
  const own = stored.resource.customer_id;
  return typeof own === "string" ? own : (stored.customer_id ?? null);
}
