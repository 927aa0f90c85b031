// What an operation's handler is given: the request, read and routed, and the sandbox it works in.
import type { Clock } from "../clock/index.js";
import type { Events } from "../events/index.js";
import type { SpecFacts } from "../lifecycle/spec-facts.js";
import type { Scope, StoreTransaction } from "../store/store.js";

export interface RouteContext {
  params: Record<string, string>;
  query: Record<string, string>;
  body: Record<string, unknown>;
  scope: Scope;
  /** The partner of the request's API key (its id, see partner.ts). */
  partnerId: string;
  /** The request's transaction. */
  store: StoreTransaction;
  events: Events;
  facts: SpecFacts;
  /** Sandbox time: what every timestamp and quote is made from. */
  clock: Clock;
}
