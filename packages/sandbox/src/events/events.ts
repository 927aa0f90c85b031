// Webhook events: the sandbox's own payload ({ id, topic, created_at, customer_id, data }), sent
// to every enabled webhook subscribed to its topic, at least once. A change queues its events as
// delivery attempts on the sandbox clock, in its own transaction; the scheduler makes each attempt
// once it has committed. A failed attempt is tried again on the RETRY_DELAYS_SECONDS schedule, with
// the same event id, and every attempt is recorded for GET /_sandbox/events.
import type { Clock } from "../clock/index.js";
import { type ArmedFaults, type DeliveryFault, deliveryFault, nthDraw } from "../faults/index.js";
import type { DeliveryEvent, Resource } from "../store/sandbox-data.js";
import type { JobFinish, ScheduledJob } from "../store/store.js";
import type { Transactions } from "../test-mode/index.js";
import type { DeliveryOutcome, WebhookSender } from "./deliveries.js";
import type { BroadcastRows, EventRows } from "./event-rows.js";

export interface EventPayload {
  id: string;
  topic: string;
  created_at: string;
  customer_id: string | null;
  data: unknown;
}

/** The body of a scheduled delivery attempt. */
interface DeliveryJob {
  webhook_id: string;
  url: string;
  /** 1 for the first attempt. */
  attempt: number;
  event: EventPayload;
  /** In the opt-in delivery mode, or by a fault: a delivery that arrives is sent a second time at once. */
  duplicate?: true;
  /** A fault's: the delivery is not sent, only recorded. */
  drop?: true;
  /** The fault rule that acts on it. */
  fault_id?: string;
  /** Held back (the opt-in delivery mode, a fault's delay): sent to its webhook as it is when due. */
  held?: true;
}

/**
 * The deliveries whose order a receiver may rely on share a key: those of one webhook about one
 * customer. Deliveries with different keys may be sent at the same time.
 */
export function deliveryOrderKey(job: ScheduledJob): string {
  const delivery = job.body as DeliveryJob;
  return `${delivery.webhook_id}\n${delivery.event.customer_id ?? ""}`;
}

/**
 * After the nth failed attempt, the next one comes this many seconds of sandbox time later: 1 min,
 * 5 min, 30 min, 2 h, 8 h, 24 h. After the 7th attempt fails, the event is given up.
 */
export const RETRY_DELAYS_SECONDS = [60, 300, 1_800, 7_200, 28_800, 86_400] as const;

/**
 * The opt-in delivery mode for testing a receiver's handling of duplicates and disorder: of the
 * events queued, DUPLICATE_RATE are sent a second time right after their first delivery that
 * arrives, and REORDER_RATE wait REORDER_DELAY_SECONDS of sandbox time, so that later events
 * overtake them. Both are chosen as an event is queued, so the same seed makes the same choices
 * for the same sequence of events.
 */
export interface DeliveryChaos {
  seed: number;
}
export const DUPLICATE_RATE = 0.1;
export const REORDER_RATE = 0.1;
export const REORDER_DELAY_SECONDS = 5;

export class Events {
  private readonly store: Transactions<EventRows>;
  private readonly sender: WebhookSender;
  private readonly clock: Clock;
  private readonly random: (() => number) | undefined;
  /** The partner's armed fault rules; undefined with failure rehearsal off. */
  private readonly faults: ArmedFaults | undefined;
  /** Set when a transaction queued a delivery; the sandbox starts the scheduler once it commits. */
  private queued = false;

  constructor(
    store: Transactions<EventRows>,
    sender: WebhookSender,
    clock: Clock,
    chaos: DeliveryChaos | undefined,
    faults?: ArmedFaults,
  ) {
    this.store = store;
    this.sender = sender;
    this.clock = clock;
    this.random = chaos === undefined ? undefined : seededRandom(chaos.seed);
    this.faults = faults;
  }

  /**
   * Adds the event, in the change's transaction, to the partner's event log, and queues it for
   * every enabled webhook subscribed to its topic, at the change's time (`clock`: a step that the
   * clock runs happens at its own time). Every webhook gets the same event, with the same id.
   */
  async broadcast(
    tx: BroadcastRows,
    topic: string,
    customerId: string | null,
    data: unknown,
    clock: Clock = this.clock,
  ): Promise<void> {
    const event = this.eventOf(topic, customerId, data, clock);
    logEvent(tx, event);
    const webhooks = (await tx.list("webhooks")).map((stored) => stored.resource);
    for (const webhook of webhooks) {
      const subscribed = Array.isArray(webhook.topics) && webhook.topics.includes(topic);
      if (webhook.enabled !== true || !subscribed) continue;
      const duplicate = this.chance(DUPLICATE_RATE);
      const delay = this.chance(REORDER_RATE) ? REORDER_DELAY_SECONDS * 1000 : 0;
      const job: DeliveryJob = {
        webhook_id: webhook.id,
        url: String(webhook.url),
        attempt: 1,
        event,
      };
      const fault = this.faults?.armed
        ? await deliveryFault(tx, this.faults, topic, customerId)
        : undefined;
      const waitMs = delay + (fault?.delaySeconds ?? 0) * 1000;
      const queued = withFault(duplicate ? { ...job, duplicate } : job, fault);
      await tx.schedule({
        dueAt: clock.now().getTime() + waitMs,
        kind: "deliver",
        subject: event.id,
        body: waitMs > 0 ? { ...queued, held: true } : queued,
      });
      this.sender.queued?.(job.url);
      this.queued = true;
    }
  }

  /** True once after a transaction queued deliveries. */
  takeQueued(): boolean {
    const queued = this.queued;
    this.queued = false;
    return queued;
  }

  /** Sends one event to one webhook now (unless it is disabled), records the attempt, answers whether it arrived. */
  async send(
    webhook: Resource,
    topic: string,
    customerId: string | null,
    data: unknown,
  ): Promise<boolean> {
    if (webhook.enabled !== true) return false;
    const event = this.eventOf(topic, customerId, data, this.clock);
    const fault = await this.store.transaction((tx) => {
      logEvent(tx, event);
      return this.faults?.armed
        ? deliveryFault(tx, this.faults as ArmedFaults, topic, customerId)
        : Promise.resolve(undefined);
    });
    const job = withFault(
      { webhook_id: webhook.id, url: String(webhook.url), attempt: 1, event },
      fault,
    );
    const delaySeconds = fault?.delaySeconds;
    if (delaySeconds !== undefined) {
      // Sent later, on the sandbox clock, as a queued event is: not now.
      await this.store.transaction((tx) =>
        tx.schedule({
          dueAt: this.clock.now().getTime() + delaySeconds * 1000,
          kind: "deliver",
          subject: event.id,
          body: { ...job, held: true },
        }),
      );
      this.queued = true;
      return false;
    }
    const outcome = job.drop
      ? dropped(fault?.faultId ?? "")
      : await this.sender.deliver(job.url, event);
    const again =
      outcome.delivered && job.duplicate ? await this.sender.deliver(job.url, event) : undefined;
    await this.store.transaction(async (tx) => {
      await this.record(tx, job, outcome, false, this.clock);
      if (again !== undefined)
        await this.record(tx, { ...job, attempt: 2 }, again, false, this.clock);
    });
    return outcome.delivered;
  }

  /**
   * The scheduler's work for a delivery attempt: the request now, its record in the job's
   * transaction, at `clock`'s time (an advance runs it at the time it is due).
   */
  readonly perform = async (job: ScheduledJob, clock: Clock = this.clock): Promise<JobFinish> => {
    const queued = job.body as DeliveryJob;
    // A retry, or a delivery held back, goes to the webhook as it is when it is due: to its url
    // then, and only while it is enabled (one disabled since is given up, nothing sent or recorded).
    const later = queued.attempt > 1 || queued.held === true;
    const delivery = later ? await this.stillWanted(queued) : queued;
    if (delivery === undefined) return async () => {};
    const outcome = delivery.drop
      ? dropped(delivery.fault_id ?? "")
      : await this.sender.deliver(delivery.url, delivery.event);
    const again =
      outcome.delivered && delivery.duplicate === true
        ? await this.sender.deliver(delivery.url, delivery.event)
        : undefined;
    return async (tx) => {
      // A retry is numbered after every attempt recorded meanwhile (a redelivery's); its place
      // in the retry schedule stays its own.
      const number = delivery.attempt > 1 ? await numberAfterLast(tx, delivery) : delivery.attempt;
      await this.record(tx, delivery, outcome, true, clock, number);
      if (again !== undefined) {
        const duplicate = { ...delivery, attempt: delivery.attempt + 1 };
        await this.record(tx, duplicate, again, false, clock, number + 1);
      }
    };
  };

  /** The retry as its webhook now takes it (its current url), or undefined when it is disabled. */
  private async stillWanted(job: DeliveryJob): Promise<DeliveryJob | undefined> {
    const webhook = await this.store.transaction((tx) =>
      tx.find("webhooks", job.webhook_id, undefined),
    );
    return webhook?.resource.enabled === true
      ? { ...job, url: String(webhook.resource.url) }
      : undefined;
  }

  /**
   * Sends an event the log holds an attempt of again now, to its webhook's current url (one
   * attempt, not retried); resolves to the attempt, or undefined when the log holds none or the
   * webhook is gone.
   */
  async redeliver(eventId: string): Promise<DeliveryEvent | undefined> {
    const found = await this.store.transaction(async (tx) => {
      const latest = await tx.latestAttempt(eventId);
      const webhook = latest && (await tx.find("webhooks", latest.webhook_id, undefined));
      return latest && webhook && { latest, webhook: webhook.resource };
    });
    if (found === undefined) return undefined;
    const job: DeliveryJob = {
      webhook_id: found.webhook.id,
      url: String(found.webhook.url),
      attempt: (found.latest.attempt ?? 1) + 1,
      event: found.latest.payload as EventPayload,
    };
    const outcome = await this.sender.deliver(job.url, job.event);
    // Numbered as it is recorded: redeliveries sent at once get numbers of their own.
    return this.store.transaction(async (tx) =>
      this.record(tx, job, outcome, false, this.clock, await numberAfterLast(tx, job)),
    );
  }

  private eventOf(
    topic: string,
    customerId: string | null,
    data: unknown,
    clock: Clock,
  ): EventPayload {
    return {
      id: crypto.randomUUID(),
      topic,
      created_at: clock.now().toISOString(),
      customer_id: customerId,
      data,
    };
  }

  /** In the opt-in delivery mode, true at `rate`; otherwise false (and nothing is drawn). */
  private chance(rate: number): boolean {
    return this.random !== undefined && this.random() < rate;
  }

  /**
   * Records the attempt in the event log, and a failure on the webhook; a failed attempt of a
   * queued event is retried while the schedule lasts and the webhook is enabled.
   */
  private async record(
    tx: EventRows,
    job: DeliveryJob,
    outcome: DeliveryOutcome,
    retried: boolean,
    clock: Clock,
    /** The number the attempt is recorded with; its place in the retry schedule is `job.attempt`. */
    number: number = job.attempt,
  ): Promise<DeliveryEvent> {
    const nowMs = clock.now().getTime();
    const now = new Date(nowMs).toISOString();
    const attempt = job.attempt;
    // Only a failure changes the webhook or is retried: a delivery that arrived needs no lookup,
    // and neither does one never sent (to a reserved example host), which fails nothing.
    const failed = !outcome.delivered && outcome.sent !== false;
    const webhook = failed
      ? (await tx.find("webhooks", job.webhook_id, undefined))?.resource
      : undefined;
    if (webhook !== undefined && !outcome.delivered) {
      webhook.last_failure = now;
      webhook.last_failure_reason = outcome.failure_reason;
      await tx.update("webhooks", webhook);
    }
    const delay = RETRY_DELAYS_SECONDS[attempt - 1];
    const retry =
      retried && failed && delay !== undefined && webhook?.enabled === true
        ? nowMs + delay * 1000
        : undefined;
    if (retry !== undefined && webhook !== undefined) {
      await tx.schedule({
        dueAt: retry,
        kind: "deliver",
        subject: job.event.id,
        body: { ...job, attempt: attempt + 1, url: String(webhook.url) } satisfies DeliveryJob,
      });
    }
    // `id` first: latestAttempt finds an event's attempts by the start of their JSON.
    const event: DeliveryEvent = {
      id: job.event.id,
      attempt_id: crypto.randomUUID(),
      topic: job.event.topic,
      webhook_id: job.webhook_id,
      url: job.url,
      created_at: now,
      attempt: number,
      sent: true,
      ...outcome,
      ...(retry !== undefined && { next_attempt_at: new Date(retry).toISOString() }),
      ...(job.fault_id !== undefined && { fault_id: job.fault_id }),
      payload: job.event,
    };
    await tx.recordEvent(event);
    await countDelivery(tx, job, outcome);
    return event;
  }
}

/**
 * The attempt's number: its own, or after the newest attempt of its event to its webhook that
 * the log holds (each webhook's attempts of an event are numbered 1, 2, …).
 */
async function numberAfterLast(tx: EventRows, job: DeliveryJob): Promise<number> {
  const log = tx.eventLog({ id: job.event.id, webhook_id: job.webhook_id });
  const [newest] = await log.from(undefined, 1);
  const last = newest === undefined ? 0 : Number(JSON.parse(newest.item.text).attempt ?? 0);
  return Math.max(job.attempt, last + 1);
}

/** Adds the event to the partner's log, as the body a delivery sends. */
function logEvent(tx: BroadcastRows, event: EventPayload): void {
  tx.appendEvent({
    id: event.id,
    topic: event.topic,
    customerId: event.customer_id,
    body: JSON.stringify(event),
  });
}

/** The job as a fault rule makes it: duplicated, dropped or (in its due time) delayed. */
function withFault(job: DeliveryJob, fault: DeliveryFault | undefined): DeliveryJob {
  if (fault === undefined) return job;
  return {
    ...job,
    fault_id: fault.faultId,
    ...(fault.delivery === "duplicate" && { duplicate: true as const }),
    ...(fault.delivery === "drop" && { drop: true as const }),
  };
}

/** The outcome of a delivery a fault dropped: nothing sent, nothing to retry. */
function dropped(faultId: string): DeliveryOutcome {
  return {
    delivered: false,
    sent: false,
    failure_reason: `not sent: the test-mode fault ${faultId} dropped it; POST /_sandbox/events/{id}/redeliver sends it`,
  };
}

/**
 * The readiness counts of a delivery attempt: sent and acknowledged per topic, and the event
 * marked failing until an attempt of it to the same webhook is acknowledged. One never sent to a
 * reserved example host counts nothing: no receiver was asked.
 */
async function countDelivery(
  tx: EventRows,
  job: DeliveryJob,
  outcome: DeliveryOutcome,
): Promise<void> {
  const topic = job.event.topic;
  const failing = `${job.webhook_id} ${job.event.id}`;
  // Dropped by a fault: the receiver never got it, so it is failing until redelivered.
  if (job.drop === true) {
    await tx.raiseCounts([{ kind: "failing", name: failing, detail: topic, n: 1 }]);
    return;
  }
  if (!outcome.delivered && outcome.sent === false) return;
  if (!outcome.delivered) {
    await tx.addCounts([{ kind: "delivered", name: topic, detail: "", n: 1 }]);
    await tx.raiseCounts([{ kind: "failing", name: failing, detail: topic, n: 1 }]);
    return;
  }
  await tx.addCounts([
    { kind: "delivered", name: topic, detail: "", n: 1 },
    { kind: "acknowledged", name: topic, detail: "", n: 1 },
  ]);
  // Only a later attempt can follow a failed one (a retry, a redelivery).
  if (job.attempt > 1) await tx.removeCounts("failing", [failing]);
}

/** The sequence a seed fixes, drawn in turn (the faults' mulberry32 draws). */
function seededRandom(seed: number): () => number {
  let drawn = 0;
  return () => nthDraw(seed, ++drawn);
}
