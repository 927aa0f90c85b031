// The stateful sandbox: the API's operations over data that persists, behind the same Prism
// request validation as the stateless mock. The mock's handler (or any composition of the engine
// and http/) hands it each request the engine has routed and validated. Each API key is a partner
// of its own (store/partner.ts): its data, clock, webhooks, event log and idempotency keys are out
// of every other key's reach.

import type { ApiRequest, Operations, Routed } from "@org/payments-engine";
import { isObject } from "@org/payments-engine";
import { type Answer, problemAnswer } from "./answer/answer.js";
import { handlerOf } from "./api/api-routes.js";
import { Idempotency, settled } from "./api/idempotency.js";
import { ReadCache } from "./api/read-cache.js";
import { dataFromSeed, defaultSeed, readSeed, type Seed, starterSeed } from "./api/seed.js";
import { elapsedNow, realNow, SandboxClock } from "./clock/clock.js";
import { answerControl, type ControlServices } from "./control/control-routes.js";
import { FAULT_HANDLERS } from "./control/fault-routes.js";
import {
  ArmedFaults,
  type DeclaredStatuses,
  type FaultHit,
  faultsBefore,
  type Verdict,
} from "./faults/index.js";
import type { ChangeContext } from "./lifecycle/change-context.js";
import { performStep } from "./lifecycle/changes.js";
import { Scheduler } from "./lifecycle/scheduler.js";
import { readSpecFacts, type SpecFacts } from "./lifecycle/spec-facts.js";
import {
  defaultProfile,
  PROFILE_CONTEXT,
  type Profile,
  readinessReport,
  readProfile,
} from "./readiness/index.js";
import { FinishedRequests } from "./requests/index.js";
import { openStore } from "./store/open-store.js";
import { DEFAULT_EXAMPLE_KEY, EXAMPLE_PARTNER_ID, partnerIdOf } from "./store/partner.js";
import {
  PartnerLimitError,
  type PartnerStore,
  type SandboxStore,
  type StoreTransaction,
} from "./store/store.js";
import {
  DEFAULT_DELIVERY_LIMITS,
  type DeliveryLimits,
  DeliverySender,
} from "./webhooks/deliveries.js";
import { type DeliveryChaos, Events } from "./webhooks/events.js";

export interface SandboxOptions {
  /** The spec's operations: their examples make the default seed, their enums bound statuses. */
  operations: Operations;
  /**
   * Where the data persists: a SQLite database file (a 0.1 JSON state file is migrated into
   * one), or a postgres:// URL for a sandbox shared by several processes. Without it the data
   * lives in memory as long as the process.
   */
  state?: string;
  /** A seed file's path or a seed object, instead of the one made from the spec's examples. */
  seed?: string | object;
  delivery?: Partial<DeliveryLimits>;
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
}

/** The partners a sandbox keeps unless `maxPartners` says otherwise. */
const DEFAULT_MAX_PARTNERS = 1_000;
/** A partner idle this long (real time) makes room for a new one when the sandbox is full. */
const EVICTABLE_AFTER_MS = 15 * 60 * 1000;

/** Days a partner's data outlives its last request unless `idleDays` says otherwise. */
const DEFAULT_IDLE_DAYS = 30;
/** How often a process purges idle partners. */
const PURGE_CHECK_MS = 60_000;
/** A partner in use is marked seen in the store at most this often by a process. */
const SEEN_EVERY_MS = 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A tenant: one partner (an API key's data in the store) as this process holds it, with its clock,
 * events, idempotency and armed faults.
 */
interface Tenant {
  partner: string;
  clock: SandboxClock;
  events: Events;
  idempotency: Idempotency;
  store: PartnerStore;
  /** Its armed fault rules and rate limit, as this process knows them. */
  faults: ArmedFaults;
  /** When (real time) this process last marked it seen in the store; 0 never. */
  seenAt: number;
  /** The store's partner made (at its first request) and marked seen: requests wait for it. */
  entered: Promise<void>;
}

export interface Sandbox {
  /** The answer to an API request that Prism has validated and routed. */
  answer(request: ApiRequest, routed: Routed): Promise<Answer>;
  /** The answer to a request under /_sandbox/ that the engine has validated and routed. */
  control(request: ApiRequest, routed: Routed): Promise<Answer>;
  /**
   * Counts, for its partner's readiness report, an API request that the engine routed but
   * refused with `status` before the sandbox saw it (a body or header the API does not admit,
   * such as a POST without its IDEMPOTENCY-KEY). A request without a key has no partner, and a
   * refused request makes none: only a partner this process has seen a request of is counted.
   */
  refused(request: ApiRequest, routed: Routed, status: number): void;
  close(): Promise<void>;
}

export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  const facts = readSpecFacts(options.operations);
  const seed = options.seed === undefined ? defaultSeed(facts) : readSeed(options.seed);
  const starter = starterSeed(seed);
  const log = options.log ?? ((line: string) => console.error(line));
  // Before the store opens: a bad profile changes nothing.
  const profile =
    options.readinessProfile === undefined
      ? defaultProfile(PROFILE_CONTEXT)
      : await readProfile(options.readinessProfile, PROFILE_CONTEXT);
  const counting = options.countReadiness !== false;
  const store = await openStore(options.state, () => dataFromSeed(seed), log, { counting });
  const rehearsal = options.rehearsal !== false;
  const registry: TenantRegistry = {
    store,
    seed,
    starter,
    exampleKey: options.exampleKey ?? DEFAULT_EXAMPLE_KEY,
    sender: new DeliverySender({ ...DEFAULT_DELIVERY_LIMITS, ...options.delivery }),
    deliveryChaos: options.deliveryChaos,
    maxPartners: options.maxPartners ?? DEFAULT_MAX_PARTNERS,
    tenants: new Map(),
    rehearsal,
    finished:
      rehearsal || counting
        ? new FinishedRequests(store, { log: rehearsal, counts: counting })
        : undefined,
  };
  const scheduler = new Scheduler<Tenant>(store, (partner) => tenantOf(registry, partner), {
    step: (tenant, job, clock) => performStep((tx) => ({ ...changesOf(tenant)(tx), clock }))(job),
    deliver: (tenant, job, clock) => tenant.events.perform(job, clock),
  });
  const sandbox: SandboxServices = {
    ...registry,
    facts,
    scheduler,
    reads: new ReadCache(store),
    declaredStatuses: declaredStatusesOf(options.operations),
    profile,
  };
  const purgeTimer = purgeIdlePartners(registry, options.idleDays ?? DEFAULT_IDLE_DAYS);
  return {
    answer: (request, routed) => answerApi(sandbox, request, routed),
    control: (request, routed) => answerControlRequest(sandbox, request, routed),
    refused: (request, routed, status) => {
      countRefused(sandbox, request, routed, status).catch(() => {
        // Not counted: the store is stopping, or full; the request was answered.
      });
    },
    async close() {
      clearInterval(purgeTimer);
      await scheduler.close();
      await registry.finished?.close();
      registry.sender.close();
      await store.close();
    },
  };
}

/** The tenants this process holds, and what it makes new ones from. */
interface TenantRegistry {
  store: SandboxStore;
  seed: Seed;
  /** What every partner but the example key's starts with. */
  starter: Seed;
  exampleKey: string;
  /** Sends the webhook deliveries of every partner, on connections it closes with the sandbox. */
  sender: DeliverySender;
  deliveryChaos: DeliveryChaos | undefined;
  /** The most partners kept; 0 for any number. */
  maxPartners: number;
  tenants: Map<string, Promise<Tenant>>;
  /** Fault rules, the rate limit and the request log are on. */
  rehearsal: boolean;
  /**
   * Writes finished requests to the request log (rehearsal on) and the readiness counts (counting
   * on); undefined when neither is.
   */
  finished: FinishedRequests | undefined;
}

/** What a running sandbox's requests use: the tenants, the spec's facts, the scheduler, the caches. */
interface SandboxServices extends TenantRegistry {
  facts: SpecFacts;
  scheduler: Scheduler<Tenant>;
  reads: ReadCache;
  declaredStatuses: DeclaredStatuses;
  profile: Profile;
}

/** What a partner starts with, and goes back to at a reset. */
function startData(registry: TenantRegistry, partner: string) {
  return dataFromSeed(partner === EXAMPLE_PARTNER_ID ? registry.seed : registry.starter);
}

/** The partner as this process knows it, its clock read from the store the first time. */
function tenantOf(registry: TenantRegistry, partner: string): Promise<Tenant> {
  const { store, tenants } = registry;
  let known = tenants.get(partner);
  if (known === undefined) {
    known = store.transaction(partner, async (tx) => {
      if (!registry.rehearsal) return newTenant(registry, partner, await tx.clockOffset());
      const state = await tx.partnerState();
      const tenant = newTenant(registry, partner, state.offsetMs);
      // A partner that never armed anything has nothing to read.
      if (state.faultsVersion > 0) await tenant.faults.load(tx, state.faultsVersion);
      else tenant.faults.version = 0;
      return tenant;
    });
    tenants.set(partner, known);
    known.catch(() => tenants.delete(partner));
  }
  return known;
}

function newTenant(registry: TenantRegistry, partner: string, offset: number): Tenant {
  const { store, sender, deliveryChaos, rehearsal } = registry;
  const clock = new SandboxClock(offset);
  const partnerStore: PartnerStore = {
    partner,
    shared: store.shared,
    transaction: (work) => store.transaction(partner, work),
  };
  const faults = new ArmedFaults();
  return {
    partner,
    clock,
    events: new Events(partnerStore, sender, clock, deliveryChaos, rehearsal ? faults : undefined),
    idempotency: new Idempotency(partnerStore),
    store: partnerStore,
    faults,
    seenAt: 0,
    entered: Promise.resolve(),
  };
}

/** The key's partner, made in the store at its first request, and marked seen there now and then. */
async function enter(registry: TenantRegistry, apiKey: string): Promise<Tenant> {
  const tenant = await tenantOf(registry, partnerIdOf(apiKey, registry.exampleKey));
  const now = realNow();
  if (now - tenant.seenAt >= SEEN_EVERY_MS) {
    tenant.seenAt = now;
    // Every request of the key waits for this one transaction, which makes a new partner.
    const room =
      registry.maxPartners > 0
        ? { maxPartners: registry.maxPartners, idleBefore: now - EVICTABLE_AFTER_MS }
        : undefined;
    tenant.entered = tenant.store
      .transaction(async (tx) => {
        const entered = await tx.enter(now, room);
        if (entered.created) await tx.fill(startData(registry, tenant.partner));
        tenant.clock.observe(entered.offsetMs);
        return entered.evicted;
      })
      .then((evicted) => {
        if (evicted === undefined) return;
        registry.tenants.delete(evicted);
        registry.finished?.forget([evicted]);
      })
      .catch((error: unknown) => {
        tenant.seenAt = 0;
        // A key refused for want of room is not kept either.
        if (error instanceof PartnerLimitError) registry.tenants.delete(tenant.partner);
        throw error;
      });
  }
  await tenant.entered;
  return tenant;
}

function changesOf(tenant: Tenant) {
  return (tx: StoreTransaction): ChangeContext => ({
    partnerId: tenant.partner,
    tx,
    clock: tenant.clock,
    events: tenant.events,
  });
}

/** Checks now and then for partners idle `idleDays` (none when 0) and purges them. */
function purgeIdlePartners(registry: TenantRegistry, idleDays: number): NodeJS.Timeout {
  const idleMs = idleDays * DAY_MS;
  const purgeTimer = setInterval(() => {
    if (idleMs <= 0) return;
    // What waits is written first; what still cannot be is not written for a partner purged.
    Promise.resolve(registry.finished?.flush())
      .then(() => registry.store.purgeIdle(realNow() - idleMs))
      .then((purged) => {
        for (const partner of purged) registry.tenants.delete(partner);
        registry.finished?.forget(purged);
      })
      .catch(() => {
        // The database is gone (stopping): the next check purges them.
      });
  }, PURGE_CHECK_MS);
  purgeTimer.unref();
  return purgeTimer;
}

/** Sends what the request queued, once its transaction has committed. */
function sendQueued<T>(sandbox: SandboxServices, tenant: Tenant, answer: T): T {
  if (tenant.events.takeQueued()) sandbox.scheduler.kick(tenant);
  return answer;
}

async function answerApi(
  sandbox: SandboxServices,
  request: ApiRequest,
  routed: Routed,
): Promise<Answer> {
  const handler = handlerOf(routed.operation.iid);
  if (handler === undefined) return noSandboxRoute(request.path);
  const started = elapsedNow();
  // Prism has checked that the request has a key.
  const tenant = await enter(sandbox, header(request, "x-api-key") ?? "").catch(noRoom);
  if ("status" in tenant) return tenant;
  const at = tenant.clock.nowMs();
  const verdict: Verdict = {};
  let answer = await answerOperation(sandbox, tenant, request, routed, handler, verdict);
  if (verdict.delayMs !== undefined) await waitMs(verdict.delayMs);
  if (verdict.dropAfterCommit) answer = { ...answer, drop: true };
  const headers = verdict.headers && { ...verdict.headers, ...answer.headers };
  if (headers !== undefined) answer = { ...answer, headers };
  sandbox.finished?.add(tenant.partner, {
    at,
    method: request.method.toUpperCase(),
    path: request.path,
    operation_id: routed.operation.iid ?? "",
    status: answer.drop ? null : answer.status,
    duration_ms: Math.round((elapsedNow() - started) * 1000) / 1000,
    idempotency_key: header(request, "idempotency-key") ?? null,
    replayed: answer.replayed === true,
    ...hitOf(verdict.hit),
    ...readinessFacts(request, answer),
  });
  return answer;
}

/** What the readiness counters take from a request beyond its log entry. */
function readinessFacts(request: ApiRequest, answer: Answer) {
  const retryAfter = Number(answer.headers?.["retry-after"]);
  return {
    cursor: request.query.cursor !== undefined,
    key_reused: answer.status === 422 && problemType(answer).endsWith(":idempotency-key-reused"),
    retry_after_s: Number.isFinite(retryAfter) ? retryAfter : null,
  };
}

function problemType(answer: Answer): string {
  const body = answer.body as { type?: unknown } | undefined;
  return typeof body?.type === "string" ? body.type : "";
}

/**
 * Counts a request the engine refused (see Sandbox.refused), for a partner this process knows: a
 * refused request never makes a partner, so that keys that are refused cannot fill the sandbox.
 */
async function countRefused(
  sandbox: SandboxServices,
  request: ApiRequest,
  routed: Routed,
  status: number,
) {
  const key = header(request, "x-api-key");
  if (key === undefined || sandbox.finished === undefined) return;
  const known = sandbox.tenants.get(partnerIdOf(key, sandbox.exampleKey));
  if (known === undefined) return;
  const tenant = await known;
  sandbox.finished.add(tenant.partner, {
    at: tenant.clock.nowMs(),
    method: request.method.toUpperCase(),
    path: request.path,
    operation_id: routed.operation.iid ?? "",
    status,
    // The engine answered it before the sandbox saw it.
    duration_ms: 0,
    idempotency_key: header(request, "idempotency-key") ?? null,
    replayed: false,
    fault_id: null,
    fault: null,
    ...readinessFacts(request, { status, body: undefined }),
  });
}

function hitOf(hit: FaultHit | undefined) {
  return { fault_id: hit?.faultId ?? null, fault: hit?.kind ?? null };
}

function waitMs(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The operation's answer, or a fault's instead; what the faults do besides goes into `verdict`. */
async function answerOperation(
  sandbox: SandboxServices,
  tenant: Tenant,
  request: ApiRequest,
  { operation, params }: Routed,
  handler: NonNullable<ReturnType<typeof handlerOf>>,
  verdict: Verdict,
): Promise<Answer> {
  const scope = header(request, "x-sub-partner-id");
  const body = isObject(request.body) ? request.body : {};
  const operationId = operation.iid ?? "";
  /** What every transaction of the request does first: the clock, then the faults. */
  const before = async (tx: StoreTransaction): Promise<Answer | undefined> => {
    if (sandbox.store.shared) {
      // Another process may have moved a shared sandbox's clock, or armed a rule.
      if (!sandbox.rehearsal) {
        tenant.clock.observe(await tx.clockOffset());
        return undefined;
      }
      const state = await tx.partnerState();
      tenant.clock.observe(state.offsetMs);
      if (state.faultsVersion !== tenant.faults.version) {
        await tenant.faults.load(tx, state.faultsVersion);
      }
    }
    if (!tenant.faults.armed) return undefined;
    const facts = {
      operationId,
      customerId: customerIdOf(request, params, body),
      scope,
      nowMs: tenant.clock.nowMs(),
    };
    Object.assign(verdict, await faultsBefore(tx, tenant.faults, facts));
    return verdict.answer;
  };
  const work = (tx: StoreTransaction) =>
    handler({
      params,
      query: request.query,
      body,
      scope,
      partnerId: tenant.partner,
      store: tx,
      events: tenant.events,
      facts: sandbox.facts,
      clock: tenant.clock,
    });
  const key = header(request, "idempotency-key");
  if (request.method.toUpperCase() !== "POST" || key === undefined) {
    const run = async () =>
      settled(await tenant.store.transaction(async (tx) => (await before(tx)) ?? (await work(tx))));
    // A partner with something armed is answered in a transaction, where the faults act.
    if (tenant.faults.armed) return sendQueued(sandbox, tenant, await run());
    const read = { partner: tenant.partner, operationId, params, query: request.query, scope };
    return sendQueued(sandbox, tenant, await sandbox.reads.answer(read, run));
  }
  const keyed = { key, method: "POST", path: request.path, scope, body: request.body };
  return sendQueued(sandbox, tenant, await tenant.idempotency.run(keyed, work, before));
}

/** The customer a request is about, as a rule's `match` reads it: its path, query or body. */
function customerIdOf(
  request: ApiRequest,
  params: Record<string, string>,
  body: Record<string, unknown>,
): string | undefined {
  const fromPath =
    params.customer_id ?? (request.path.startsWith("/customers/") ? params.id : undefined);
  const fromBody = typeof body.customer_id === "string" ? body.customer_id : undefined;
  return fromPath ?? request.query.customer_id ?? fromBody;
}

/** Every operation's declared statuses, from the API's document. */
function declaredStatusesOf(operations: Operations): DeclaredStatuses {
  return (operationId) => {
    const responses =
      operations.find((operation) => operation.iid === operationId)?.responses ?? [];
    return {
      codes: responses.map((response) => Number(response.code)).filter(Number.isInteger),
      default: responses.some((response) => response.code === "default"),
    };
  };
}

/** A route of failure rehearsal, asked of a sandbox started without it. */
function rehearsalOff(path: string): Answer {
  return problemAnswer(404, "not-found", "Not found", [
    {
      location: "route",
      field: "",
      rule: "rehearsal",
      message: `${path}: this sandbox was started without failure rehearsal (--no-rehearsal, or rehearsal: false); start it without that to arm faults, set a rate limit and read the request log`,
    },
  ]);
}

function noSandboxRoute(path: string): Answer {
  return problemAnswer(404, "not-found", "Not found", [
    { location: "route", field: "", rule: "route", message: `no sandbox route ${path}` },
  ]);
}

async function answerControlRequest(
  sandbox: SandboxServices,
  request: ApiRequest,
  { operation, params }: Routed,
): Promise<Answer> {
  if (!sandbox.rehearsal && Object.hasOwn(FAULT_HANDLERS, operation.iid ?? "")) {
    return rehearsalOff(request.path);
  }
  // The engine has checked that the request has a key.
  const tenant = await enter(sandbox, header(request, "x-api-key") ?? "").catch(noRoom);
  if ("status" in tenant) return tenant;
  const runner = sandbox.scheduler.runnerOf(tenant);
  if (sandbox.store.shared) await runner.syncClock();
  const services: ControlServices = {
    store: tenant.store,
    clock: tenant.clock,
    events: tenant.events,
    scheduler: runner,
    changes: changesOf(tenant),
    reset: async (tx) => {
      await tx.replaceAll(startData(sandbox, tenant.partner));
      if (sandbox.rehearsal) await tenant.faults.reload(tx);
    },
    faults: tenant.faults,
    declaredStatuses: sandbox.declaredStatuses,
    flushRequests: async () => sandbox.finished?.flush(),
    async readiness() {
      // Requests that cannot be written now stay queued; the report shows what is written.
      await sandbox.finished?.flush();
      return tenant.store.transaction((tx) => readinessReport(tx, tenant.partner, sandbox.profile));
    },
  };
  const body = isObject(request.body) ? request.body : {};
  const answer = await answerControl(services, operation.iid ?? "", {
    params,
    query: request.query,
    body,
  });
  return sendQueued(sandbox, tenant, answer);
}

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

function header(request: ApiRequest, name: string): string | undefined {
  const value = request.headers[name];
  return value === undefined || value === "" ? undefined : value;
}
