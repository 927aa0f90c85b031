// A test-mode request's way through the sandbox: its partner entered (and, for a shared store, its
// clock read), then the route of the feature it belongs to, handed the partner's part of what the
// composition holds; what the route queued is sent once it has committed.
import type { ApiRequest, Routed } from "@org/payments-engine";
import { isObject, quoted } from "@org/payments-engine";
import { type Answer, problemAnswer } from "../answers/answer.js";
import type { ClockContext } from "../clock/index.js";
import type { EventContext, EventStreams } from "../events/index.js";
import type { DeclaredStatuses, FaultContext } from "../faults/index.js";
import type { HealthContext } from "../health/index.js";
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

/** What the routes answered without a partner are handed, once, by the composition. */
type PartnerlessContext = HealthContext;

/** A feature of the test mode, as the composition lists it. */
export type Feature =
  | {
      routes: Routes<PartnerContext>;
      /** Part of failure rehearsal: refused, naming the option, in a sandbox started without it. */
      rehearsal?: true;
      partnerless?: undefined;
    }
  | {
      /** Answered before any partner is entered: asking makes none (the health check, documents). */
      partnerless: true;
      routes: Routes<PartnerlessContext>;
    };

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
  /** What the routes answered without a partner are handed. */
  partnerless: PartnerlessContext;
}

/** A route of failure rehearsal in a sandbox started without it. */
const REHEARSAL_OFF = "rehearsal off";

/** A route as the table keeps it: a partner's, one answered without a partner, or refused. */
type TableRoute =
  | { partner: Route<PartnerContext> }
  | { partnerless: Route<PartnerlessContext> }
  | typeof REHEARSAL_OFF;

/** Each route of the test-mode document, by its operationId. */
type RouteTable = ReadonlyMap<string, TableRoute>;

/** The features' routes in one table; those of failure rehearsal refused when it is off. */
export function routeTable(features: readonly Feature[], rehearsal: boolean): RouteTable {
  const table = new Map<string, TableRoute>();
  for (const feature of features) {
    for (const [operationId, route] of tableRoutes(feature, rehearsal)) {
      if (table.has(operationId)) throw new Error(`two features route ${operationId}`);
      table.set(operationId, route);
    }
  }
  return table;
}

function tableRoutes(feature: Feature, rehearsal: boolean): [string, TableRoute][] {
  if (feature.partnerless) {
    return Object.entries(feature.routes).map(([id, route]) => [id, { partnerless: route }]);
  }
  return Object.entries(feature.routes).map(([id, route]) => [
    id,
    feature.rehearsal && !rehearsal ? REHEARSAL_OFF : { partner: route },
  ]);
}

export async function answerControlRequest(
  requests: ControlRequests,
  request: ApiRequest,
  { operation, params }: Routed,
): Promise<Answer> {
  const route = requests.routes.get(operation.iid ?? "");
  if (route === undefined) throw new Error(`no route of the test-mode operation ${operation.iid}`);
  if (route === REHEARSAL_OFF) return rehearsalOff(request.path);
  const body = isObject(request.body) ? request.body : {};
  const asked = {
    params,
    query: sentValues(request.query),
    headers: sentValues(request.headers),
    body,
  };
  if ("partnerless" in route) return route.partnerless(requests.partnerless, asked);
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
  const answer = await route.partner(context, asked);
  if (tenant.events.takeQueued()) requests.scheduler.kick(tenant);
  return answer;
}

/**
 * The parameters sent with a value. The engine checks one sent empty (`?after=`, an empty
 * Last-Event-ID) as one not sent, as the API's routes read it; so do the routes here, rather
 * than read it as a value the document's rules refuse.
 */
function sentValues(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ""));
}

/** A route of failure rehearsal, asked of a sandbox started without it. */
function rehearsalOff(path: string): Answer {
  return problemAnswer(404, "not-found", "Not found", [
    {
      location: "route",
      field: "",
      rule: "rehearsal",
      message: `${quoted(path)}: this sandbox was started without failure rehearsal (--no-rehearsal, or rehearsal: false); start it without that to arm faults, set a rate limit and read the request log`,
    },
  ]);
}
