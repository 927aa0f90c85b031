// The stateful sandbox, composed: the API's operations over data that persists, behind the same
// Prism request validation as the stateless mock, and the test mode's features. The mock's handler
// (or any composition of the engine and http/) hands it each request the engine has routed and
// validated; request/ takes it from there. This file only puts the parts together: the store, the
// tenants (one per API key), the scheduler, the finished requests' writer and the features. What
// differs between Node (sandbox.ts: SQLite or Postgres, undici deliveries, files) and a browser
// page (browser.ts: the memory store, fetch) is handed to it, read or opened.

import type { ApiRequest, Operations, Routed } from "@org/payments-engine";
import type { Answer } from "./answers/answer.js";
import { ReadCache } from "./api/read-cache.js";
import { CLOCK_ROUTES, realNow } from "./clock/index.js";
import {
  type DeliveryCallback,
  type DeliveryChaos,
  type DeliveryLimits,
  EVENT_ROUTES,
  EventStreams,
  type EventStreamTiming,
  type WebhookSender,
} from "./events/index.js";
import { declaredStatusesOf, FAULT_ROUTES } from "./faults/index.js";
import { HEALTH_ROUTES, type StoreKind } from "./health/index.js";
import { Scheduler } from "./lifecycle/scheduler.js";
import { readSpecFacts } from "./lifecycle/spec-facts.js";
import { MONEY_ROUTES } from "./money/index.js";
import { RATE_LIMIT_ROUTES } from "./rate-limit/index.js";
import { countRequests, type Profile, READINESS_ROUTES } from "./readiness/index.js";
import { type ApiRequests, answerApiRequest, recordRefused } from "./request/api-request.js";
import {
  answerControlRequest,
  type ControlRequests,
  type Feature,
  routeTable,
} from "./request/control-request.js";
import {
  appendToLog,
  FinishedRequests,
  REQUEST_LOG_ROUTES,
  type RequestWriter,
} from "./request-log/index.js";
import { dataFromSeed, defaultSeedOf, SEED_ROUTES, type Seed, starterSeed } from "./seed/index.js";
import { SIMULATION_ROUTES } from "./simulations/index.js";
import { DEFAULT_EXAMPLE_KEY, EXAMPLE_PARTNER_ID } from "./store/partner.js";
import type { SandboxData } from "./store/sandbox-data.js";
import type { SandboxStore, StoreTransaction } from "./store/store.js";
import { TENANT_JOBS, type Tenant, Tenants } from "./tenants/tenants.js";
import { DOCUMENT_ROUTES } from "./test-mode/index.js";

export interface SandboxOptions {
  /** The spec's operations: their examples make the default seed, their enums bound statuses. */
  operations: Operations;
  /**
   * Where the data persists: a SQLite database file (a 0.1 JSON state file is migrated into
   * one), or a postgres:// URL for a sandbox shared by several processes. Without it the data
   * lives in memory as long as the process.
   */
  state?: string;
  /**
   * Without `state`, which store holds the data in memory: SQLite's (default), or the plain
   * JavaScript one the in-page sandbox runs (store/memory-store.ts), to hold it to the same tests.
   */
  memoryStore?: "sqlite" | "javascript";
  /** A seed file's path or a seed object, instead of the one made from the spec's examples. */
  seed?: string | object;
  delivery?: Partial<DeliveryLimits>;
  /**
   * How webhook deliveries are sent: "http" (default) with undici, "fetch" with the global
   * fetch (a browser's, subject to CORS), or to a callback instead of the webhook's url.
   */
  webhookTransport?: "http" | "fetch" | DeliveryCallback;
  /** Duplicate and reorder webhook deliveries, deterministically from the seed (see events.ts). */
  deliveryChaos?: DeliveryChaos;
  /** Gets the line saying that a 0.1 JSON state file was migrated. Default: stderr. */
  log?: (line: string) => void;
  /** The API key whose partner holds the whole seed; every other key starts with a part of it. */
  exampleKey?: string;
  /**
   * Days after its last request a partner's data is purged (real time). 0 keeps every partner.
   * Default DEFAULT_IDLE_DAYS.
   */
  idleDays?: number;
  /**
   * Failure rehearsal: fault rules, a rate limit and a request log per API key, through the test
   * mode. Default true; false leaves them out altogether (the bench's baseline).
   */
  rehearsal?: boolean;
  /**
   * The most partners (API keys) the sandbox keeps. A new key beyond them drops the partner idle
   * longest, if one has been idle EVICTABLE_AFTER_MS; otherwise it is refused (503). 0 keeps any
   * number. Default DEFAULT_MAX_PARTNERS.
   */
  maxPartners?: number;
  /**
   * The readiness profile's YAML file, instead of the default profile (see readiness/). A bad one
   * stops createSandbox with its file, line and rule.
   */
  readinessProfile?: string;
  /**
   * Whether requests, deliveries and states reached are counted for readiness reports. Default
   * true; false only to measure what counting costs (every report then shows nothing).
   */
  countReadiness?: boolean;
  /** The version GET /_sandbox/health reports (the mock's). Default "development". */
  version?: string;
  /** How often an idle event stream gets a heartbeat, and polls its partner's log. */
  eventStream?: Partial<EventStreamTiming>;
}

/** What a sandbox is made of, each part read or opened where it runs (Node, a browser page). */
export interface SandboxParts
  extends Omit<
    SandboxOptions,
    "state" | "memoryStore" | "seed" | "webhookTransport" | "log" | "readinessProfile" | "delivery"
  > {
  /** The seed read, or undefined for the one made from the spec's examples. */
  seed: Seed | undefined;
  /** The readiness profile read. */
  profile: Profile;
  /** Opens the store; an empty one starts with `initial` (the seed) as the example partner's data. */
  openStore: (initial: () => SandboxData, counting: boolean) => Promise<SandboxStore>;
  /** Which store that is, as GET /_sandbox/health tells it. */
  storeKind: StoreKind;
  /** What sends the webhook deliveries. */
  sender: WebhookSender;
}

/** The partners a sandbox keeps unless `maxPartners` says otherwise. */
const DEFAULT_MAX_PARTNERS = 1_000;
/** Days a partner's data outlives its last request unless `idleDays` says otherwise. */
const DEFAULT_IDLE_DAYS = 30;

/** The test mode's features, each its routes; those of failure rehearsal marked. */
export const FEATURES: readonly Feature[] = [
  { routes: CLOCK_ROUTES },
  { routes: SIMULATION_ROUTES },
  { routes: EVENT_ROUTES },
  { routes: MONEY_ROUTES },
  { routes: SEED_ROUTES },
  { routes: FAULT_ROUTES, rehearsal: true },
  { routes: RATE_LIMIT_ROUTES, rehearsal: true },
  { routes: REQUEST_LOG_ROUTES, rehearsal: true },
  { routes: READINESS_ROUTES },
  { routes: HEALTH_ROUTES, partnerless: true },
  { routes: DOCUMENT_ROUTES, partnerless: true },
];

export interface Sandbox {
  /** The answer to an API request that Prism has validated and routed. */
  answer(request: ApiRequest, routed: Routed, requestId?: string): Promise<Answer>;
  /** The answer to a request under /_sandbox/ that the engine has validated and routed. */
  control(request: ApiRequest, routed: Routed): Promise<Answer>;
  /**
   * Counts, for its partner's readiness report, an API request that the engine routed but
   * refused with `status` before the sandbox saw it (a body or header the API does not admit,
   * such as a POST without its IDEMPOTENCY-KEY). A request without a key has no partner, and a
   * refused request makes none: only a partner this process has seen a request of is counted.
   * Resolves once it is committed (never rejects): the refusal is sent after.
   */
  refused(request: ApiRequest, routed: Routed, status: number, requestId?: string): Promise<void>;
  close(): Promise<void>;
}

/** A sandbox of the parts. */
export async function composeSandbox(options: SandboxParts): Promise<Sandbox> {
  const startedAt = realNow();
  const facts = readSpecFacts(options.operations);
  const seed = options.seed ?? defaultSeedOf(options.operations, facts);
  const { profile, sender, storeKind } = options;
  const counting = options.countReadiness !== false;
  const store = await options.openStore(() => dataFromSeed(seed), counting);
  const rehearsal = options.rehearsal !== false;
  // What is written of each finished request: its request-log entry, its readiness counts.
  const writers: RequestWriter<StoreTransaction>[] = [
    ...(rehearsal ? [appendToLog] : []),
    ...(counting ? [countRequests] : []),
  ];
  const finished = writers.length > 0 ? new FinishedRequests(store, writers) : undefined;
  const reads: ApiRequests["reads"] = new ReadCache(store);
  const tenants = new Tenants({
    store,
    seed,
    starter: starterSeed(seed),
    exampleKey: options.exampleKey ?? DEFAULT_EXAMPLE_KEY,
    sender,
    deliveryChaos: options.deliveryChaos,
    maxPartners: options.maxPartners ?? DEFAULT_MAX_PARTNERS,
    rehearsal,
    finished,
    reads,
  });
  const scheduler = new Scheduler<Tenant>(store, (partner) => tenants.of(partner), TENANT_JOBS);
  const shared = store.shared;
  const streams = new EventStreams(store, options.eventStream);
  const health = {
    version: options.version ?? "development",
    storeKind,
    startedAt,
    store,
    probePartner: EXAMPLE_PARTNER_ID,
    scheduler,
  };
  const apiRequests: ApiRequests = {
    tenants,
    scheduler,
    reads,
    facts,
    finished,
    rehearsal,
    shared,
  };
  const controlRequests: ControlRequests = {
    tenants,
    scheduler,
    routes: routeTable(FEATURES, rehearsal),
    declaredStatuses: declaredStatusesOf(options.operations),
    pending: finished,
    profile,
    rehearsal,
    shared,
    streams,
    partnerless: { health },
  };
  const purgeTimer = tenants.purgeIdle(options.idleDays ?? DEFAULT_IDLE_DAYS);
  return {
    answer: (request, routed, requestId) =>
      answerApiRequest(apiRequests, request, routed, requestId),
    control: (request, routed) => answerControlRequest(controlRequests, request, routed),
    refused: (request, routed, status, requestId) =>
      recordRefused(apiRequests, request, routed, status, requestId).catch(() => {
        // Not counted: the store is stopping, or full; the request is answered.
      }),
    async close() {
      clearInterval(purgeTimer);
      streams.close();
      await scheduler.close();
      await finished?.close();
      sender.close();
      await store.close();
    },
  };
}
