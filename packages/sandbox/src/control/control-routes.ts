// Sandbox-only routes under /_sandbox/, not part of the API: the clock, the simulations
// (simulations.ts, deposits.ts), the webhook event log and redelivery, reset, the rate table and
// the check of a quote's signature.
import { decoded } from "@org/payments-engine/http/url.js";
import { type Answer, notFound, ok, problemAnswer } from "../api/answer.js";
import type { ChangeContext } from "../lifecycle/change-context.js";
import type { SandboxClock } from "../lifecycle/clock.js";
import { LIFECYCLES, lifecycleOfRoute } from "../lifecycle/lifecycles.js";
import type { Scheduler } from "../lifecycle/scheduler.js";
import { deposit } from "../money/deposits.js";
import { signatureValid, signingSecret } from "../money/quote-signature.js";
import { changeRates, readRateChanges, readRates } from "../money/rates.js";
import type { SandboxStore, StoreTransaction } from "../store/store.js";
import type { Events } from "../webhooks/events.js";
import { invalidBody, invalidField, objectBody } from "./control-input.js";
import { eventPage } from "./event-log.js";
import { addFiatAddress, addWebhook, changeStatus } from "./simulations.js";

export const CONTROL_PREFIX = "/_sandbox/";

/** What the routes work with. */
export interface ControlServices {
  store: SandboxStore;
  clock: SandboxClock;
  events: Events;
  scheduler: Scheduler;
  /** The change context of a transaction. */
  changes(tx: StoreTransaction): ChangeContext;
  /** Back to the seed, in the transaction. */
  reset(tx: StoreTransaction): Promise<void>;
}

interface Route {
  method: "GET" | "POST";
  /** The route after /_sandbox/, as the README names it. */
  name: string;
  pattern: RegExp;
  answer(
    services: ControlServices,
    params: string[],
    body: Record<string, unknown>,
    query: Record<string, string>,
  ): Promise<Answer>;
}

/** The longest clock advance: a century. */
const MAX_ADVANCE_SECONDS = 100 * 365 * 24 * 60 * 60;

const inTransaction =
  (
    work: (
      context: ChangeContext,
      params: string[],
      body: Record<string, unknown>,
    ) => Promise<Answer>,
  ) =>
  (services: ControlServices, params: string[], body: Record<string, unknown>) =>
    services.store.transaction((tx) => work(services.changes(tx), params, body));

const collections = LIFECYCLES.map((lifecycle) => lifecycle.route).join("|");

const ROUTES: Route[] = [
  {
    method: "GET",
    name: "clock",
    pattern: /^clock$/,
    answer: async (services) => {
      await services.scheduler.syncClock();
      return ok(clockBody(services.clock));
    },
  },
  { method: "POST", name: "clock/advance", pattern: /^clock\/advance$/, answer: advanceClock },
  {
    method: "POST",
    name: `{${collections}}/{id}/status`,
    pattern: new RegExp(`^(${collections})/([^/]+)/status$`),
    answer: inTransaction((context, [route = "", id = ""], body) =>
      changeStatus(context, lifecycleOfRoute(route) ?? LIFECYCLES[0], id, body),
    ),
  },
  {
    method: "POST",
    name: "autoramps/{id}/deposits",
    pattern: /^autoramps\/([^/]+)\/deposits$/,
    answer: inTransaction((context, [id = ""], body) => deposit(context, id, body)),
  },
  {
    method: "POST",
    name: "customers/{id}/fiat-addresses",
    pattern: /^customers\/([^/]+)\/fiat-addresses$/,
    answer: inTransaction((context, [id = ""], body) => addFiatAddress(context, id, body)),
  },
  {
    method: "POST",
    name: "webhooks",
    pattern: /^webhooks$/,
    answer: inTransaction((context, _, body) => addWebhook(context, body)),
  },
  {
    method: "GET",
    name: "events",
    pattern: /^events$/,
    answer: (services, _, __, query) =>
      services.store.transaction(async (tx) => eventPage(await tx.events(), query)),
  },
  {
    method: "POST",
    name: "events/{id}/redeliver",
    pattern: /^events\/([^/]+)\/redeliver$/,
    answer: async (services, [id = ""]) => {
      const attempt = await services.events.redeliver(id);
      return attempt === undefined
        ? notFound("path", "id", `no webhook event ${id} of a webhook that exists`)
        : ok(attempt);
    },
  },
  {
    method: "GET",
    name: "rates",
    pattern: /^rates$/,
    answer: (services) =>
      services.store.transaction(async (tx) => ok({ rates: await readRates(tx) })),
  },
  {
    method: "POST",
    name: "rates",
    pattern: /^rates$/,
    answer: (services, _, body) => services.store.transaction((tx) => setRates(tx, body)),
  },
  {
    method: "POST",
    name: "quotes/verify",
    pattern: /^quotes\/verify$/,
    answer: (services, _, body) =>
      services.store.transaction((tx) => verifyQuote(tx, services.clock, body)),
  },
  {
    method: "GET",
    name: "quotes/signing-key",
    pattern: /^quotes\/signing-key$/,
    answer: (services) =>
      services.store.transaction(async (tx) =>
        ok({ algorithm: "HMAC-SHA256", key: await signingSecret(tx) }),
      ),
  },
  {
    method: "POST",
    name: "reset",
    pattern: /^reset$/,
    answer: async (services) => {
      await services.store.transaction((tx) => services.reset(tx));
      return ok({ reset: true });
    },
  },
];

export async function answerControl(
  services: ControlServices,
  method: string,
  path: string,
  body: unknown,
  query: Record<string, string> = {},
): Promise<Answer> {
  const route = path.slice(CONTROL_PREFIX.length);
  const matching = ROUTES.flatMap((candidate) => {
    const match = candidate.pattern.exec(route);
    return match ? [{ candidate, params: match.slice(1).map((p) => decoded(p) ?? p) }] : [];
  });
  if (matching.length === 0) {
    const known = ROUTES.map((r) => `${r.method} /_sandbox/${r.name}`).join(", ");
    return notFound("route", "", `no sandbox route ${path}; there are ${known}`);
  }
  const chosen = matching.find(({ candidate }) => candidate.method === method.toUpperCase());
  if (chosen === undefined) {
    const allowed = [...new Set(matching.map(({ candidate }) => candidate.method))].join(", ");
    return problemAnswer(405, "method-not-allowed", "Method not allowed", [
      { location: "route", field: "", rule: "method", message: `use ${allowed}` },
    ]);
  }
  const object = objectBody(body);
  if ("answer" in object) return object.answer;
  return chosen.candidate.answer(services, chosen.params, object.body, query);
}

/** Changes the values of the currencies `{ "rates": { code: value in USD } }` names; answers the table. */
async function setRates(tx: StoreTransaction, body: Record<string, unknown>): Promise<Answer> {
  const read = readRateChanges(body.rates);
  if ("problems" in read) {
    return invalidBody(
      read.problems.map((problem) =>
        invalidField(
          problem.code === "" ? "rates" : `rates.${problem.code}`,
          "rate",
          problem.message,
        ),
      ),
    );
  }
  return ok({ rates: await changeRates(tx, read.changes) });
}

/**
 * Whether the body is a quote the sandbox signed, unchanged since; for one that is, whether its
 * `valid_until` and its rate lock's `rate_lock_valid_until` have passed on the sandbox clock.
 */
async function verifyQuote(
  tx: StoreTransaction,
  clock: SandboxClock,
  body: Record<string, unknown>,
): Promise<Answer> {
  if (typeof body.signature !== "string") {
    return invalidBody([
      invalidField(
        "signature",
        "required",
        "send the quote as GET /autoramps/quote answered it, signature included",
      ),
    ]);
  }
  if (!signatureValid(await signingSecret(tx), body)) return ok({ valid: false });
  // A signed quote holds both times as the sandbox wrote them.
  const passed = (time: unknown) => clock.nowMs() >= Date.parse(String(time));
  return ok({
    valid: true,
    expired: passed(body.valid_until),
    rate_lock_expired: passed(body.rate_lock_valid_until),
  });
}

function clockBody(clock: SandboxClock) {
  return { now: clock.now().toISOString(), ahead_by_seconds: Math.round(clock.offsetMs / 1000) };
}

/**
 * POST /_sandbox/clock/advance with `{ "seconds": n }` or `{ "to": "<date-time>" }`: moves the
 * clock forward, running everything scheduled up to then, in order. Never back.
 */
async function advanceClock(
  services: ControlServices,
  _: string[],
  body: Record<string, unknown>,
): Promise<Answer> {
  const { seconds, to } = body;
  const extra = Object.keys(body).filter((name) => name !== "seconds" && name !== "to");
  if (extra.length > 0 || (seconds === undefined) === (to === undefined)) {
    return invalidBody([
      invalidField(
        extra[0] ?? "seconds",
        "oneOf",
        'send exactly one of "seconds" (a number of seconds, at least 0) or "to" (a date-time)',
      ),
    ]);
  }
  await services.scheduler.syncClock();
  const now = services.clock.nowMs();
  if (seconds !== undefined) {
    if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) {
      return invalidBody([invalidField("seconds", "minimum", "must be a number, at least 0")]);
    }
    if (seconds > MAX_ADVANCE_SECONDS) {
      return invalidBody([
        invalidField("seconds", "maximum", `must be at most ${MAX_ADVANCE_SECONDS} (a century)`),
      ]);
    }
    // By the offset, so that the time the advance takes does not come off it.
    const ran = await services.scheduler.advanceBy(Math.round(seconds * 1000));
    return ok({ ...clockBody(services.clock), ran });
  }
  const parsed = typeof to === "string" && isDateTime(to) ? Date.parse(to) : Number.NaN;
  if (Number.isNaN(parsed)) {
    return invalidBody([
      invalidField("to", "format", "must be an RFC 3339 date-time, such as 2030-01-01T00:00:00Z"),
    ]);
  }
  if (parsed < now) {
    return invalidBody([
      invalidField(
        "to",
        "minimum",
        `the clock never goes back: it is at ${new Date(now).toISOString()}, later than ${to}`,
      ),
    ]);
  }
  if (parsed - now > MAX_ADVANCE_SECONDS * 1000) {
    return invalidBody([invalidField("to", "maximum", "must be within a century of now")]);
  }
  const ran = await services.scheduler.advance(parsed);
  return ok({ ...clockBody(services.clock), ran });
}

function isDateTime(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(text);
}
