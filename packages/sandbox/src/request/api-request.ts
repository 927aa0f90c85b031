// An API request's way through the sandbox, top-down: its partner entered; in one transaction the
// rate limit and the faults decide one verdict, then (unless the verdict answers instead) the key
// is claimed and the operation runs; after the commit the verdict is applied once; the finished
// request is recorded once, and (unless it is a read) answered once its record is committed.
import type { ApiRequest, Routed } from "@org/payments-engine";
import { deprecatedUses, isObject, quoted } from "@org/payments-engine";
import { type Answer, problemAnswer } from "../answers/answer.js";
import { handlerOf } from "../api/api-routes.js";
import {
  claimKey,
  type KeyedRequest,
  keepAnswer,
  keptAfterCommit,
  settled,
  type WorkResult,
} from "../api/idempotency.js";
import type { ReadCache } from "../api/read-cache.js";
import { elapsedNow } from "../clock/index.js";
import type { RequestFacts, Verdict } from "../faults/index.js";
import type { Scheduler } from "../lifecycle/scheduler.js";
import type { SpecFacts } from "../lifecycle/spec-facts.js";
import {
  type FinishedRequest,
  type FinishedRequests,
  finishedRequest,
  headerOf,
} from "../request-log/index.js";
import type { StoreTransaction } from "../store/store.js";
import type { Tenant, Tenants } from "../tenants/tenants.js";
import { applyVerdict, decideVerdict, NO_VERDICT } from "./verdict.js";

/** What a request's transaction decided and made. */
interface Decided<T> {
  verdict: Verdict;
  result: T;
}

/** What API requests are answered with: the composition's tenants, scheduler and caches. */
export interface ApiRequests {
  tenants: Tenants;
  scheduler: Scheduler<Tenant>;
  reads: ReadCache<{ verdict: Verdict; answer: Answer }>;
  facts: SpecFacts;
  /** Where finished requests are recorded; undefined when nothing is kept of them. */
  finished: FinishedRequests<StoreTransaction> | undefined;
  /** Fault rules, the rate limit and the request log are on. */
  rehearsal: boolean;
  /** Other processes share the store (Postgres). */
  shared: boolean;
}

type Operation = NonNullable<ReturnType<typeof handlerOf>>;

export async function answerApiRequest(
  requests: ApiRequests,
  request: ApiRequest,
  routed: Routed,
  requestId?: string,
): Promise<Answer> {
  const handler = handlerOf(routed.operation.iid);
  if (handler === undefined) return noSandboxRoute(request.path);
  const started = elapsedNow();
  // Prism has checked that the request has a key.
  const tenant = await requests.tenants.enter(headerOf(request, "x-api-key") ?? "");
  if ("status" in tenant) return tenant;
  const at = tenant.clock.nowMs();
  const { verdict, answer } = await runOperation(requests, tenant, request, routed, handler);
  if (tenant.events.takeQueued()) requests.scheduler.kick(tenant);
  const sent = await applyVerdict(verdict, answer);
  await record(
    requests.finished,
    tenant.partner,
    finishedRequest({
      request,
      operationId: routed.operation.iid ?? "",
      at,
      durationMs: elapsedNow() - started,
      answer: sent,
      hit: verdict.hit,
      requestId,
      deprecated: deprecatedUses(routed.operation, request),
    }),
  );
  return sent;
}

/**
 * Records, for its partner's readiness report, a request the engine refused with `status` before
 * the sandbox saw it, for a partner this process knows: a refused request never makes a partner,
 * so that keys that are refused cannot fill the sandbox. Resolves once it is committed (a read's,
 * once it waits to be).
 */
export async function recordRefused(
  requests: ApiRequests,
  request: ApiRequest,
  routed: Routed,
  status: number,
  requestId?: string,
): Promise<void> {
  const key = headerOf(request, "x-api-key");
  if (key === undefined || requests.finished === undefined) return;
  const known = requests.tenants.known(key);
  if (known === undefined) return;
  const tenant = await known;
  await record(
    requests.finished,
    tenant.partner,
    finishedRequest({
      request,
      operationId: routed.operation.iid ?? "",
      at: tenant.clock.nowMs(),
      // The engine answered it before the sandbox saw it.
      durationMs: 0,
      answer: { status, body: undefined },
      requestId,
      deprecated: deprecatedUses(routed.operation, request),
    }),
  );
}

/**
 * Records the finished request: one that changes something (any method but GET) is answered once
 * its record is committed, so that a crash loses none answered; a read is written in a batch soon
 * after its answer (see FinishedRequests).
 */
function record(
  finished: FinishedRequests<StoreTransaction> | undefined,
  partner: string,
  request: FinishedRequest,
): Promise<void> | undefined {
  if (request.method !== "GET") return finished?.commit(partner, request);
  finished?.add(partner, request);
  return undefined;
}

/**
 * The verdict and the answer: a request with an IDEMPOTENCY-KEY one at a time with this process's
 * others of that key; a read of a partner with nothing armed from the read cache when it can be.
 */
async function runOperation(
  requests: ApiRequests,
  tenant: Tenant,
  request: ApiRequest,
  { operation, params }: Routed,
  handler: Operation,
): Promise<{ verdict: Verdict; answer: Answer }> {
  const scope = headerOf(request, "x-sub-partner-id");
  const body = isObject(request.body) ? request.body : {};
  const operationId = operation.iid ?? "";
  // What a fault rule matches on, read only for a partner with something armed.
  const facts = (): RequestFacts => ({
    operationId,
    customerId: customerIdOf(request, params, body),
    scope,
  });
  const work = (tx: StoreTransaction) =>
    handler({
      params,
      query: request.query,
      body,
      scope,
      partnerId: tenant.partner,
      store: tx,
      events: tenant.events,
      facts: requests.facts,
      clock: tenant.clock,
    });
  const key = keyOf(headerOf(request, "idempotency-key"));
  if (request.method.toUpperCase() === "POST" && key !== undefined) {
    const keyed: KeyedRequest = {
      key,
      method: "POST",
      path: request.path,
      scope,
      body: request.body,
    };
    return tenant.idempotency.oneAtATime(key, async () => {
      const { verdict, result } = await tenant.store.transaction((tx) =>
        inTransaction(requests, tenant, tx, facts, async () => {
          const instead = await claimKey(tx, keyed);
          if (instead !== undefined) return instead;
          const done = await work(tx);
          await keepAnswer(tx, key, done);
          return done;
        }),
      );
      return { verdict, answer: await keptAfterCommit(tenant.store, key, result) };
    });
  }
  const run = async () => {
    const { verdict, result } = await tenant.store.transaction((tx) =>
      inTransaction(requests, tenant, tx, facts, () => work(tx)),
    );
    return { verdict, answer: await settled(result) };
  };
  // A partner with something armed is answered in a transaction, where the faults act.
  if (tenant.faults.armed) return run();
  const read = {
    partner: tenant.partner,
    operationId,
    params,
    query: request.query,
    scope,
  };
  return requests.reads.answer(read, run);
}

/**
 * What every transaction of an API request does: the partner's clock (and, for a shared store,
 * its armed rules) as the store has them, then the verdict, then the operation unless the verdict
 * answers instead.
 */
async function inTransaction(
  requests: ApiRequests,
  tenant: Tenant,
  tx: StoreTransaction,
  facts: () => RequestFacts,
  operation: () => Promise<WorkResult>,
): Promise<Decided<WorkResult>> {
  if (requests.shared) {
    // Another process may have moved a shared sandbox's clock, or armed a rule.
    if (!requests.rehearsal) {
      tenant.clock.observe(await tx.clockOffset());
    } else {
      const state = await tx.partnerState();
      tenant.clock.observe(state.offsetMs);
      if (state.faultsVersion !== tenant.faults.version) {
        await tenant.faults.load(tx, state.faultsVersion);
      }
    }
  }
  const verdict = tenant.faults.armed
    ? await decideVerdict(tx, tenant.faults, facts(), tenant.clock.nowMs())
    : NO_VERDICT;
  return { verdict, result: verdict.answer ?? (await operation()) };
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

function noSandboxRoute(path: string): Answer {
  return problemAnswer(404, "not-found", "Not found", [
    { location: "route", field: "", rule: "route", message: `no sandbox route ${quoted(path)}` },
  ]);
}

/**
 * An IDEMPOTENCY-KEY as the UUID it names: a UUID's hex digits are case-insensitive (RFC 9562),
 * and the document's format takes its URN form too, so a retry that writes the key in capitals
 * or as `urn:uuid:…` is the same key, not a second request.
 */
function keyOf(header: string | undefined): string | undefined {
  return header?.toLowerCase().replace(/^urn:uuid:/, "");
}
