// Webhook events: the sandbox's own payload ({ id, topic, created_at, customer_id, data }),
// sent to webhooks and recorded with their outcome for GET /_sandbox/events.
import { randomUUID } from "node:crypto";
import { type DeliveryLimits, type DeliveryOutcome, deliver } from "./deliveries.js";
import type { DeliveryEvent, Resource } from "./state.js";
import type { Store } from "./store.js";

/** Deliveries kept in the state; older ones are dropped. */
const MAX_EVENTS = 500;

export interface EventPayload {
  id: string;
  topic: string;
  created_at: string;
  customer_id: string | null;
  data: unknown;
}

export class Events {
  private readonly pending = new Set<Promise<unknown>>();
  private closed = false;

  private readonly store: Store;
  private readonly limits: DeliveryLimits;

  constructor(store: Store, limits: DeliveryLimits) {
    this.store = store;
    this.limits = limits;
  }

  /** Sends one event to one webhook (unless it is disabled) and records the outcome. */
  async send(webhook: Resource, topic: string, customerId: string | null, data: unknown) {
    if (webhook.enabled !== true) return false;
    const payload: EventPayload = {
      id: randomUUID(),
      topic,
      created_at: new Date().toISOString(),
      customer_id: customerId,
      data,
    };
    const delivery = deliver(String(webhook.url), payload, this.limits);
    this.pending.add(delivery);
    const outcome = await delivery.finally(() => this.pending.delete(delivery));
    if (!this.closed) this.record(webhook, payload, outcome);
    return outcome.delivered;
  }

  /** Sends the event to every enabled webhook subscribed to its topic, without waiting. */
  broadcast(topic: string, customerId: string | null, data: unknown): void {
    for (const { resource } of this.store.list("webhooks", undefined)) {
      const topics = Array.isArray(resource.topics) ? resource.topics : [];
      if (topics.includes(topic)) void this.send(resource, topic, customerId, data);
    }
  }

  /** Stops recording and waits for deliveries under way (each is bounded by its timeout). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.pending]);
  }

  private record(webhook: Resource, payload: EventPayload, outcome: DeliveryOutcome): void {
    const now = new Date().toISOString();
    if (!outcome.delivered) {
      webhook.last_failure = now;
      webhook.last_failure_reason = outcome.failure_reason;
    }
    const event: DeliveryEvent = {
      id: payload.id,
      topic: payload.topic,
      webhook_id: webhook.id,
      url: String(webhook.url),
      created_at: now,
      ...outcome,
      payload,
    };
    const events = this.store.data.events;
    events.push(event);
    events.splice(0, Math.max(0, events.length - MAX_EVENTS));
    this.store.save();
  }
}
