// Webhook events: the sandbox's own payload ({ id, topic, created_at, customer_id, data }),
// sent to webhooks and recorded with their outcome for GET /_sandbox/events. A status change
// queues its events in the outbox within its transaction; they are sent once it has committed,
// each by one process.
import { randomUUID } from "node:crypto";
import { type DeliveryLimits, type DeliveryOutcome, deliver } from "./deliveries.js";
import type { DeliveryEvent, Resource } from "./state.js";
import type { OutboxItem, SandboxStore, StoreTransaction } from "./store.js";

/** How often a shared sandbox looks for events that a process which died left undelivered. */
const SHARED_OUTBOX_POLL_MS = 1_000;

export class Events {
  private readonly pending = new Set<Promise<unknown>>();
  private draining: Promise<void> | undefined;
  /** Set when events were queued while a drain was under way: it goes round once more. */
  private requested = false;
  private closed = false;
  private readonly poll: NodeJS.Timeout | undefined;
  private readonly store: SandboxStore;
  private readonly limits: DeliveryLimits;

  constructor(store: SandboxStore, limits: DeliveryLimits) {
    this.store = store;
    this.limits = limits;
    // Events left in the outbox by an earlier run (or another process) are sent now.
    this.drain();
    if (store.shared) {
      this.poll = setInterval(() => this.drain(), SHARED_OUTBOX_POLL_MS);
      this.poll.unref();
    }
  }

  /** Sends one event to one webhook now (unless it is disabled) and records the outcome. */
  async send(webhook: Resource, topic: string, customerId: string | null, data: unknown) {
    if (webhook.enabled !== true) return false;
    const item = outboxItem(webhook, topic, customerId, data);
    // Tracked until recorded, so that close() waits for the record before the store closes.
    return this.track(
      (async () => {
        const outcome = await deliver(item.url, item.payload, this.limits);
        await this.store.transaction((tx) => record(tx, item, outcome));
        return outcome.delivered;
      })(),
    );
  }

  /** Queues the event, in the request's transaction, for every enabled webhook subscribed to its topic. */
  async broadcast(
    tx: StoreTransaction,
    topic: string,
    customerId: string | null,
    data: unknown,
  ): Promise<void> {
    const webhooks = (await tx.list("webhooks")).map((stored) => stored.resource);
    const subscribed = webhooks.filter(
      (webhook) =>
        webhook.enabled === true && Array.isArray(webhook.topics) && webhook.topics.includes(topic),
    );
    await tx.enqueue(subscribed.map((webhook) => outboxItem(webhook, topic, customerId, data)));
  }

  /** Sends queued events until none is left, without waiting; call once a queueing transaction has committed. */
  drain(): void {
    this.requested = true;
    if (this.closed || this.draining !== undefined) return;
    this.draining = this.track(this.deliverAll()).finally(() => {
      this.draining = undefined;
    });
  }

  /** Stops taking events and waits for deliveries under way (each is bounded by its timeout). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poll);
    await Promise.allSettled([...this.pending]);
  }

  private async deliverAll(): Promise<void> {
    const send = (item: OutboxItem) => deliver(item.url, item.payload, this.limits);
    try {
      while (this.requested && !this.closed) {
        this.requested = false;
        while (!this.closed && (await this.store.deliverNext(send, record))) {}
      }
    } catch {
      // The database is gone (stopping, or a lost connection): the events stay in the outbox.
    }
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    return work.finally(() => this.pending.delete(work));
  }
}

function outboxItem(
  webhook: Resource,
  topic: string,
  customerId: string | null,
  data: unknown,
): OutboxItem {
  return {
    webhookId: webhook.id,
    url: String(webhook.url),
    payload: {
      id: randomUUID(),
      topic,
      created_at: new Date().toISOString(),
      customer_id: customerId,
      data,
    },
  };
}

/** Records the delivery in the event log, and a failure on the webhook. */
async function record(
  tx: StoreTransaction,
  item: OutboxItem,
  outcome: DeliveryOutcome,
): Promise<void> {
  const now = new Date().toISOString();
  const webhook = (await tx.find("webhooks", item.webhookId, undefined))?.resource;
  if (webhook !== undefined && !outcome.delivered) {
    webhook.last_failure = now;
    webhook.last_failure_reason = outcome.failure_reason;
    await tx.update("webhooks", webhook);
  }
  const event: DeliveryEvent = {
    id: item.payload.id,
    topic: item.payload.topic,
    webhook_id: item.webhookId,
    url: item.url,
    created_at: now,
    ...outcome,
    payload: item.payload,
  };
  await tx.recordEvent(event);
}
