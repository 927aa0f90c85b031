// The answers of the test mode's routes under /_sandbox/, by the operationId of the test-mode
// document (openapi/test-mode.yaml): the clock, the simulations (simulations.ts, deposits.ts), the
// webhook event log and redelivery, reset, the rate table and the check of a quote's signature.
// Prism's router and validators, the same as the API's, have routed the request and checked its
// parameters and body against the document: what is left here is what the sandbox's state decides.

import { type Answer, notFound, ok, problemAnswer } from "../answer/answer.js";
import type { SandboxClock } from "../clock/clock.js";
import type { components } from "../generated/test-mode.js";
import type { ChangeContext } from "../lifecycle/change-context.js";
import {
  AUTORAMP,
  CUSTOMER,
  FIAT_ADDRESS,
  IDENTIFICATION,
  type Lifecycle,
  TRANSACTION,
} from "../lifecycle/lifecycles.js";
import { signatureValid, signingSecret } from "../money/quote-signature.js";
import { changeRates, readRates } from "../money/rates.js";
import type { StoreTransaction } from "../store/store.js";
import type { ControlRequest, ControlServices } from "./control-services.js";
import { deposit } from "./deposits.js";
import { eventPage } from "./event-log.js";
import { FAULT_HANDLERS } from "./fault-routes.js";
import { addFiatAddress, addWebhook, changeStatus } from "./simulations.js";
import { testModeDocument } from "./test-mode-document.js";

type Schemas = components["schemas"];

export type { ControlServices };

type Handler = (services: ControlServices, request: ControlRequest) => Promise<Answer>;

/** The longest clock advance: a century (the document's `seconds` maximum). */
const MAX_ADVANCE_SECONDS = 100 * 365 * 24 * 60 * 60;

const inTransaction =
  (work: (context: ChangeContext, request: ControlRequest) => Promise<Answer>): Handler =>
  (services, request) =>
    services.store.transaction((tx) => work(services.changes(tx), request));

const statusOf = (lifecycle: Lifecycle): Handler =>
  inTransaction((context, { params, body }) => {
    const { status, force } = body as
      | Schemas["CustomerStatusChange"]
      | Schemas["AutorampTransactionStatusChange"];
    return changeStatus(context, lifecycle, params.id ?? "", status, force === true);
  });

/** Each operation of the test-mode document, by its operationId. */
export const CONTROL_HANDLERS: Readonly<Record<string, Handler>> = {
  getClock: async (services) => {
    await services.scheduler.syncClock();
    return ok(clockBody(services.clock));
  },
  advanceClock,
  setCustomerStatus: statusOf(CUSTOMER),
  setIdentificationStatus: statusOf(IDENTIFICATION),
  setAutorampStatus: statusOf(AUTORAMP),
  setFiatAddressStatus: statusOf(FIAT_ADDRESS),
  setAutorampTransactionStatus: statusOf(TRANSACTION),
  simulateDeposit: inTransaction((context, { params, body }) =>
    deposit(context, params.id ?? "", body as Schemas["Deposit"]),
  ),
  addFiatAddress: inTransaction((context, { params, body }) =>
    addFiatAddress(context, params.id ?? "", body as Schemas["NewFiatAddress"]),
  ),
  addWebhook: inTransaction((context, { body }) =>
    addWebhook(context, body as Schemas["NewWebhook"]),
  ),
  listEvents: (services, { query }) => services.store.transaction((tx) => eventPage(tx, query)),
  redeliverEvent: async (services, { params }) => {
    const id = params.id ?? "";
    const attempt = await services.events.redeliver(id);
    return attempt === undefined
      ? notFound("path", "id", `no webhook event ${id} of a webhook that exists`)
      : ok(attempt);
  },
  getRates: (services) =>
    services.store.transaction(async (tx) => ok({ rates: await readRates(tx) })),
  setRates: (services, { body }) =>
    services.store.transaction(async (tx) => {
      const { rates } = body as Schemas["RateChange"];
      return ok({ rates: await changeRates(tx, rates as Record<string, string>) });
    }),
  verifyQuote: (services, { body }) =>
    services.store.transaction((tx) => verifyQuote(tx, services.clock, body)),
  getQuoteSigningKey: (services) =>
    services.store.transaction(async (tx) =>
      ok({ algorithm: "HMAC-SHA256", key: await signingSecret(tx) }),
    ),
  resetSandbox: async (services) => {
    await services.flushRequests();
    await services.store.transaction((tx) => services.reset(tx));
    return ok({ reset: true });
  },
  getTestModeDocument: async () => ok(testModeDocument),
  ...FAULT_HANDLERS,
  getReadiness: async (services) => ok(await services.readiness()),
};

/** The answer of the operation the engine routed the request to. */
export function answerControl(
  services: ControlServices,
  operationId: string,
  request: ControlRequest,
): Promise<Answer> {
  const handler = CONTROL_HANDLERS[operationId];
  if (handler === undefined)
    throw new Error(`no handler of the test-mode operation ${operationId}`);
  return handler(services, request);
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
 * POST /_sandbox/clock/advance with `{ "seconds": n }` or `{ "to": "<date-time>" }` (the
 * document admits exactly one, `seconds` within a century): moves the clock forward, running
 * everything scheduled up to then, in order. Never back, nor beyond a century.
 */
async function advanceClock(services: ControlServices, { body }: ControlRequest): Promise<Answer> {
  await services.scheduler.syncClock();
  const now = services.clock.nowMs();
  // The document admits exactly one of the two.
  const advance = body as Schemas["ClockAdvance"];
  if ("seconds" in advance) {
    const { seconds } = advance;
    // By the offset, so that the time the advance takes does not come off it.
    const ran = await services.scheduler.advanceBy(Math.round(seconds * 1000));
    return ok({ ...clockBody(services.clock), ran });
  }
  const { to } = advance;
  const target = Date.parse(to);
  if (target < now) {
    return clockRefused(
      "minimum",
      `the clock never goes back: it is at ${new Date(now).toISOString()}, later than ${to}`,
    );
  }
  if (target - now > MAX_ADVANCE_SECONDS * 1000) {
    return clockRefused("maximum", "must be within a century of now");
  }
  const ran = await services.scheduler.advance(target);
  return ok({ ...clockBody(services.clock), ran });
}

function clockRefused(rule: string, message: string): Answer {
  return problemAnswer(422, "invalid-request", "Invalid request", [
    { location: "body", field: "to", rule, message },
  ]);
}
