// The partners this process holds (a tenant each): made in the store at a key's first request,
// marked seen now and then, dropped to make room for a new key when the sandbox is full, and purged
// once idle for `idleDays`. Each API key is a partner of its own (store/partner.ts): its data,
// clock, webhooks, event log and idempotency keys are out of every other key's reach.

import type { Answer } from "../answers/answer.js";
import { problemAnswer } from "../answers/answer.js";
import { Idempotency } from "../api/idempotency.js";
import { realNow, SandboxClock } from "../clock/index.js";
import { type DeliveryChaos, Events, type WebhookSender } from "../events/index.js";
import { ArmedFaults } from "../faults/index.js";
import { performStep } from "../lifecycle/changes.js";
import type { Perform } from "../lifecycle/scheduler.js";
import type { FinishedRequests } from "../request-log/index.js";
import { dataFromSeed, ownStarterSeed, type Seed } from "../seed/index.js";
import { EXAMPLE_PARTNER_ID, partnerIdOf } from "../store/partner.js";
import {
  type JobKind,
  PartnerLimitError,
  type PartnerStore,
  type SandboxStore,
  type StoreTransaction,
} from "../store/store.js";

/** A partner idle this long (real time) makes room for a new one when the sandbox is full. */
const EVICTABLE_AFTER_MS = 15 * 60 * 1000;
/** How often a process purges idle partners. */
const PURGE_CHECK_MS = 60_000;
/** A partner in use is marked seen in the store at most this often by a process. */
const SEEN_EVERY_MS = 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A tenant: one partner (an API key's data in the store) as this process holds it, with its clock,
 * events, idempotency and armed faults.
 */
export interface Tenant {
  partner: string;
  clock: SandboxClock;
  events: Events;
  idempotency: Idempotency;
  store: PartnerStore;
  /** Its armed fault rules and rate limit, as this process knows them. */
  faults: ArmedFaults;
  /** What it starts with, and goes back to at a reset. */
  startSeed: Seed;
  /** When (real time) this process last marked it seen in the store; 0 never. */
  seenAt: number;
  /** The store's partner made (at its first request) and marked seen: requests wait for it. */
  entered: Promise<void>;
}

export interface TenantOptions {
  store: SandboxStore;
  seed: Seed;
  /** What every partner but the example key's starts with. */
  starter: Seed;
  exampleKey: string;
  /** Sends the webhook deliveries of every partner, on connections it closes with the sandbox. */
  sender: WebhookSender;
  deliveryChaos: DeliveryChaos | undefined;
  /** The most partners kept; 0 for any number. */
  maxPartners: number;
  /** Fault rules, the rate limit and the request log are on. */
  rehearsal: boolean;
  /** The finished requests waiting to be written, dropped for a partner that is gone. */
  finished: FinishedRequests<StoreTransaction> | undefined;
  /** The answers kept of partners' reads, dropped for a partner that is gone. */
  reads?: { forget(partners: readonly string[]): void } | undefined;
}

export class Tenants {
  private readonly options: TenantOptions;
  private readonly tenants = new Map<string, Promise<Tenant>>();

  constructor(options: TenantOptions) {
    this.options = options;
  }

  /** The partner as this process knows it, its clock read from the store the first time. */
  of(partner: string): Promise<Tenant> {
    let known = this.tenants.get(partner);
    if (known === undefined) {
      known = this.options.store.transaction(partner, async (tx) => {
        if (!this.options.rehearsal) return this.newTenant(partner, await tx.clockOffset());
        const state = await tx.partnerState();
        const tenant = this.newTenant(partner, state.offsetMs);
        // A partner that never armed anything has nothing to read.
        if (state.faultsVersion > 0) await tenant.faults.load(tx, state.faultsVersion);
        else tenant.faults.version = 0;
        return tenant;
      });
      this.tenants.set(partner, known);
      known.catch(() => this.tenants.delete(partner));
    }
    return known;
  }

  /** The key's partner if this process holds it already; a refused request never makes one. */
  known(apiKey: string): Promise<Tenant> | undefined {
    return this.tenants.get(partnerIdOf(apiKey, this.options.exampleKey));
  }

  /**
   * The key's partner, made in the store at its first request, and marked seen there now and then;
   * a 503 for a new key the sandbox has no room for.
   */
  async enter(apiKey: string): Promise<Tenant | Answer> {
    return this.entered(apiKey).catch(noRoom);
  }

  private async entered(apiKey: string): Promise<Tenant> {
    const { maxPartners, finished, reads } = this.options;
    const tenant = await this.of(partnerIdOf(apiKey, this.options.exampleKey));
    const now = realNow();
    if (now - tenant.seenAt >= SEEN_EVERY_MS) {
      tenant.seenAt = now;
      // Every request of the key waits for this one transaction, which makes a new partner.
      const room =
        maxPartners > 0 ? { maxPartners, idleBefore: now - EVICTABLE_AFTER_MS } : undefined;
      tenant.entered = tenant.store
        .transaction(async (tx) => {
          const entered = await tx.enter(now, room);
          if (entered.created) await tx.fill(dataFromSeed(tenant.startSeed));
          tenant.clock.observe(entered.offsetMs);
          return entered.evicted;
        })
        .then((evicted) => {
          if (evicted === undefined) return;
          this.tenants.delete(evicted);
          finished?.forget([evicted]);
          reads?.forget([evicted]);
        })
        .catch((error: unknown) => {
          tenant.seenAt = 0;
          // A key refused for want of room is not kept either.
          if (error instanceof PartnerLimitError) this.tenants.delete(tenant.partner);
          throw error;
        });
    }
    await tenant.entered;
    return tenant;
  }

  /** Checks now and then for partners idle `idleDays` (none when 0) and purges them. */
  purgeIdle(idleDays: number): NodeJS.Timeout {
    const { store, finished, reads } = this.options;
    const idleMs = idleDays * DAY_MS;
    const timer = setInterval(() => {
      if (idleMs <= 0) return;
      // What waits is written first; what still cannot be is not written for a partner purged.
      Promise.resolve(finished?.flush())
        .then(() => store.purgeIdle(realNow() - idleMs))
        .then((purged) => {
          for (const partner of purged) this.tenants.delete(partner);
          finished?.forget(purged);
          reads?.forget(purged);
        })
        .catch(() => {
          // The database is gone (stopping): the next check purges them.
        });
    }, PURGE_CHECK_MS);
    // Node: not what keeps the process alive (a page's timers have no unref).
    timer.unref?.();
    return timer;
  }

  private newTenant(partner: string, offset: number): Tenant {
    const { store, sender, deliveryChaos, rehearsal } = this.options;
    const clock = new SandboxClock(offset);
    const partnerStore: PartnerStore = {
      partner,
      shared: store.shared,
      transaction: (work) => store.transaction(partner, work),
      read: (work) => store.read(partner, work),
    };
    const faults = new ArmedFaults();
    return {
      partner,
      clock,
      events: new Events(
        partnerStore,
        sender,
        clock,
        deliveryChaos,
        rehearsal ? faults : undefined,
      ),
      idempotency: new Idempotency(),
      store: partnerStore,
      faults,
      startSeed:
        partner === EXAMPLE_PARTNER_ID
          ? this.options.seed
          : ownStarterSeed(this.options.starter, partner),
      seenAt: 0,
      entered: Promise.resolve(),
    };
  }
}

/** What each kind of work scheduled on a tenant's clock does: a lifecycle step, a webhook delivery. */
export const TENANT_JOBS: Readonly<Record<JobKind, Perform<Tenant>>> = {
  step: (tenant, job, clock) =>
    performStep((tx) => ({ partnerId: tenant.partner, tx, clock, events: tenant.events }))(job),
  deliver: (tenant, job, clock) => tenant.events.perform(job, clock),
};

/** The 503 of a new key the sandbox has no room for: the limit, and how to raise it. */
function noRoom(error: unknown): Answer {
  if (!(error instanceof PartnerLimitError)) throw error;
  const idle = EVICTABLE_AFTER_MS / 60_000;
  return problemAnswer(503, "partner-limit", "Sandbox partner limit reached", [
    {
      location: "security",
      field: "X-API-Key",
      rule: "maxPartners",
      message: `is a new partner, and this sandbox keeps at most ${error.maxPartners} partners (one per API key), none of them idle ${idle} minutes to make room: use a key it knows, or start it with a higher limit (payments-mock --stateful --max-partners <n>, or startMock({ stateful: true, maxPartners: n }); 0 for no limit)`,
    },
  ]);
}
