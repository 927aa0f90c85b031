// A test-mode request's way through the sandbox: its partner entered (and, for a shared store, its
// clock read), then the route of the feature it belongs to, handed the partner's part of what the
// composition holds; what the route queued is sent once it has committed.
import type { ApiRequest, Routed } from "@org/payments-engine";
import { isObject } from "@org/payments-engine";
import { type Answer, problemAnswer } from "../answers/answer.js";
import type { ClockContext } from "../clock/index.js";
import type { EventContext, EventStreams } from "../events/index.js";
import type { DeclaredStatuses, FaultContext } from "../faults/index.js";
import type { Scheduler } from "../lifecycle/scheduler.js";
import type { MoneyContext } from "../money/index.js";
import type { RateLimitContext } from "../rate-limit/index.js";
import type { Profile, ReadinessContext } from "../readiness/index.js";
import { headerOf, type PendingRequests, type RequestLogContext } from "../request-log/index.js";
import type { SeedContext } from "../seed/index.js";
import type { SimulationContext } from "../simulations/index.js";
import type { Tenant, Tenants } from "../tenants/tenants.js";
import type { Route, Routes } from "../test-mode/index.js";

/** What every feature's routes may be handed: each declares the part it takes. */
type PartnerContext = ClockContext &
  EventContext &
  SimulationContext &
  MoneyContext &
  FaultContext &
  RateLimitContext &
  RequestLogContext &
  ReadinessContext &
  SeedContext;

/** A feature of the test mode, as the composition lists it. */
export interface Feature {
  routes: Routes<PartnerContext>;
  /** Part of failure rehearsal: refused, naming the option, in a sandbox started without it. */
  rehearsal?: true;
}

/** What test-mode requests are answered with: the composition's tenants, scheduler and features. */
export interface ControlRequests {
  tenants: Tenants;
  scheduler: Scheduler<Tenant>;
  /** Each route of the test-mode document, by its operationId (routeTable). */
  routes: RouteTable;
  declaredStatuses: DeclaredStatuses;
  pending: PendingRequests | undefined;
  profile: Profile;
  rehearsal: boolean;
  /** Other processes share the store (Postgres). */
  shared: boolean;
  /** The open event streams. */
  streams: EventStreams;
  /** The routes that answer without a partner (the health check), by operationId. */
  partnerless: ReadonlyMap<string, () => Promise<Answer>>;
}

/** A route of failure rehearsal in a sandbox started without it. */
const REHEARSAL_OFF = "rehearsal off";

/** Each route of the test-mode document, by its operationId. */
type RouteTable = ReadonlyMap<string, Route<PartnerContext> | typeof REHEARSAL_OFF>;

/** The features' routes in one table; those of failure rehearsal refused when it is off. */
export function routeTable(features: readonly Feature[], rehearsal: boolean): RouteTable {
  const table = new Map<string, Route<PartnerContext> | typeof REHEARSAL_OFF>();
  for (const feature of features) {
    for (const [operationId, route] of Object.entries(feature.routes)) {
      if (table.has(operationId)) throw new Error(`two features route ${operationId}`);
      table.set(operationId, feature.rehearsal && !rehearsal ? REHEARSAL_OFF : route);
    }
  }
  return table;
}

export async function answerControlRequest(
  requests: ControlRequests,
  request: ApiRequest,
  { operation, params }: Routed,
): Promise<Answer> {
  const partnerless = requests.partnerless.get(operation.iid ?? "");
  if (partnerless !== undefined) return partnerless();
  const route = requests.routes.get(operation.iid ?? "");
  if (route === undefined) throw new Error(`no route of the test-mode operation ${operation.iid}`);
  if (route === REHEARSAL_OFF) return rehearsalOff(request.path);
  // The engine has checked that the request has a key.
  const tenant = await requests.tenants.enter(headerOf(request, "x-api-key") ?? "");
  if ("status" in tenant) return tenant;
  const runner = requests.scheduler.runnerOf(tenant);
  if (requests.shared) await runner.syncClock();
  const context: PartnerContext = {
    partner: tenant.partner,
    store: tenant.store,
    clock: tenant.clock,
    runner,
    events: tenant.events,
    faults: tenant.faults,
    declaredStatuses: requests.declaredStatuses,
    pending: requests.pending,
    profile: requests.profile,
    startSeed: tenant.startSeed,
    rehearsal: requests.rehearsal,
    streams: requests.streams,
  };
  const body = isObject(request.body) ? request.body : {};
  const answer = await route(context, {
    params,
    query: request.query,
    headers: request.headers,
    body,
  });
  if (tenant.events.takeQueued()) requests.scheduler.kick(tenant);
  return answer;
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
