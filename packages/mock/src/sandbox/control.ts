// Sandbox-only routes under /_sandbox/, not part of the API: change a resource's status (which
// delivers the matching webhook event), list the deliveries made, reset to the seed, read and
// change the rate table, check a quote's signature.
import { isObject } from "../http/is-object.js";
import { decoded } from "../http/url.js";
import { type Answer, notFound, ok, problemAnswer } from "./answer.js";
import type { Events } from "./events.js";
import { signatureValid, signingSecret } from "./quote-signature.js";
import { changeRates, readRateChanges, readRates } from "./rates.js";
import type { SpecFacts } from "./spec-facts.js";
import type { CollectionName } from "./state.js";
import type { StoreTransaction } from "./store.js";

export const CONTROL_PREFIX = "/_sandbox/";

interface StatusTarget {
  collection: CollectionName;
  /** The operation whose 200 schema carries the resource's status enum. */
  enumOf: string;
  topic: string;
}

/** Keyed by the API's own path segment(s) of the collection. */
const STATUS_TARGETS: Record<string, StatusTarget> = {
  customers: { collection: "customers", enumOf: "createCustomer", topic: "CustomerStatus" },
  identifications: {
    collection: "identifications",
    enumOf: "createDirectIdentification",
    topic: "IdentificationStatus",
  },
  autoramps: { collection: "autoramps", enumOf: "createAutoramp", topic: "RegisterAutorampStatus" },
  "addresses/fiat": {
    collection: "fiat_addresses",
    enumOf: "getFiatAddress",
    topic: "RegisterFiatAddressStatus",
  },
  "autoramp-transactions": {
    collection: "autoramp_transactions",
    enumOf: "listAutorampTransactions",
    topic: "TransactionStatus",
  },
};

export interface ControlContext {
  /** The request's transaction. */
  store: StoreTransaction;
  events: Events;
  facts: SpecFacts;
  reset(): Promise<void>;
}

export async function answerControl(
  context: ControlContext,
  method: string,
  path: string,
  body: unknown,
): Promise<Answer> {
  const route = path.slice(CONTROL_PREFIX.length);
  if (route === "reset") return only("POST", method, () => reset(context));
  if (route === "events") {
    return only("GET", method, async () => ok({ items: await context.store.events() }));
  }
  if (route === "rates") {
    return method.toUpperCase() === "GET"
      ? ok({ rates: await readRates(context.store) })
      : only("POST", method, () => setRates(context, body));
  }
  if (route === "quotes/verify") return only("POST", method, () => verifyQuote(context, body));
  if (route === "quotes/signing-key") {
    return only("GET", method, async () =>
      ok({ algorithm: "HMAC-SHA256", key: await signingSecret(context.store) }),
    );
  }
  const status = /^(?<collection>.+)\/(?<id>[^/]+)\/status$/.exec(route)?.groups;
  const target = status && STATUS_TARGETS[status.collection ?? ""];
  if (status && target) {
    return only("POST", method, () => changeStatus(context, target, status.id ?? "", body));
  }
  return notFound(
    "route",
    "",
    `no sandbox route ${path}; there are POST /_sandbox/reset, GET /_sandbox/events, GET and POST /_sandbox/rates, POST /_sandbox/quotes/verify, GET /_sandbox/quotes/signing-key and POST /_sandbox/{${Object.keys(STATUS_TARGETS).join("|")}}/{id}/status`,
  );
}

async function only(
  allowed: string,
  method: string,
  answer: () => Promise<Answer>,
): Promise<Answer> {
  if (method.toUpperCase() === allowed) return answer();
  return problemAnswer(405, "method-not-allowed", "Method not allowed", [
    { location: "route", field: "", rule: "method", message: `use ${allowed}` },
  ]);
}

/** Changes the values of the currencies `{ "rates": { code: value in USD } }` names; answers the table. */
async function setRates(context: ControlContext, body: unknown): Promise<Answer> {
  const read = readRateChanges(isObject(body) ? body.rates : undefined);
  if ("problems" in read) {
    return problemAnswer(
      422,
      "invalid-request",
      "Invalid request",
      read.problems.map((problem) => ({
        location: "body",
        field: problem.code === "" ? "rates" : `rates.${problem.code}`,
        rule: "rate",
        message: problem.message,
      })),
    );
  }
  return ok({ rates: await changeRates(context.store, read.changes) });
}

/** Whether the body is a quote the sandbox signed, unchanged since. */
async function verifyQuote(context: ControlContext, body: unknown): Promise<Answer> {
  if (!isObject(body) || typeof body.signature !== "string") {
    return problemAnswer(422, "invalid-request", "Invalid request", [
      {
        location: "body",
        field: "signature",
        rule: "required",
        message: "send the quote as GET /autoramps/quote answered it, signature included",
      },
    ]);
  }
  return ok({ valid: signatureValid(await signingSecret(context.store), body) });
}

async function reset(context: ControlContext): Promise<Answer> {
  await context.reset();
  return ok({ reset: true });
}

async function changeStatus(
  context: ControlContext,
  target: StatusTarget,
  id: string,
  body: unknown,
): Promise<Answer> {
  const value = isObject(body) ? body.status : undefined;
  const allowed = context.facts.statusEnum(target.enumOf);
  const invalid =
    typeof value !== "string" || value === ""
      ? "is required: a non-empty string"
      : allowed && !allowed.includes(value)
        ? `must be one of ${allowed.join(", ")}`
        : undefined;
  if (invalid !== undefined) {
    return problemAnswer(422, "invalid-request", "Invalid request", [
      { location: "body", field: "status", rule: allowed ? "enum" : "type", message: invalid },
    ]);
  }
  const stored = await context.store.find(target.collection, decoded(id) ?? id, undefined);
  if (!stored) return notFound("path", "id", `no ${target.collection} resource ${id}`);
  const resource = stored.resource;
  resource.status = value;
  if ("updated_at" in resource) resource.updated_at = new Date().toISOString();
  await context.store.update(target.collection, resource);
  const customerId =
    target.collection === "customers"
      ? resource.id
      : String(resource.customer_id ?? stored.customer_id ?? "") || null;
  await context.events.broadcast(context.store, target.topic, customerId, resource);
  return ok(resource);
}
