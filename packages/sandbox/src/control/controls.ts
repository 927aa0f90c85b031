// Typed functions for the test mode's routes under /_sandbox/: what startMock({ stateful: true })
// returns beside the URL, and what sandboxControls(url) gives for a sandbox in another process.
// Each is one call of an openapi-fetch client of the test-mode document, whose types
// (src/generated/test-mode.ts) are generated from it: no type here is written by hand.
import { randomUUID } from "node:crypto";
import createClient from "openapi-fetch";
import type { components, paths } from "../generated/test-mode.js";

type Schemas = components["schemas"];

/** A webhook topic, as the API names it. */
export type SandboxTopic = Schemas["WebhookTopic"];

type StatusPath = Extract<keyof paths, `/_sandbox/${string}/{id}/status`>;
type StatusRoute<C extends SandboxCollection> = `/_sandbox/${C}/{id}/status` & StatusPath;

/** The collections whose status the sandbox changes, by their path in the API. */
export type SandboxCollection = StatusPath extends `/_sandbox/${infer C}/{id}/status` ? C : never;

/** The statuses a resource of the collection may be walked to. */
export type SandboxStatus<C extends SandboxCollection> = Json<StatusRoute<C>>["status"];

/** A resource of the collection, as the API answers it. */
export type SandboxResourceOf<C extends SandboxCollection> = Answer<StatusRoute<C>>;

/** A resource the sandbox changed or made, as the API answers it. */
export type SandboxResource = SandboxResourceOf<SandboxCollection>;

/** A webhook event as the sandbox sends it. */
export type SandboxEvent = Schemas["WebhookEvent"];

/** One attempt to deliver an event, as GET /_sandbox/events lists them (newest first). */
export type DeliveryAttempt = Schemas["DeliveryAttempt"];

/** Where the sandbox clock is: sandbox now, and how far it is ahead of real time. */
export type SandboxClockReading = Schemas["ClockReading"];

/** Money arriving on an autoramp: `amount`, and optionally the currency, rail and outcome. */
export type DepositOptions = Schemas["Deposit"];

/** A bank account of the customer: `iban`, and optionally its other fields and outcome. */
export type FiatAddressOptions = Schemas["NewFiatAddress"];

/** A webhook: `url` and `topics`, and optionally `label` and `enabled`. */
export type WebhookOptions = Schemas["NewWebhook"];

/** Which attempts `events()` lists: every field given must match. */
export type EventFilter = Omit<
  NonNullable<paths["/_sandbox/events"]["get"]["parameters"]["query"]>,
  "cursor" | "page_size"
>;

/** Each supported currency's value in USD, a decimal string. */
export type SandboxRates = Schemas["RateTable"]["rates"];

/** Whether a quote is one the sandbox signed, unchanged, and whether its times have passed. */
export type QuoteVerdict = Schemas["QuoteVerdict"];

/** A fault rule to arm: which requests (`operation_id`) or deliveries (`topic`), and what it does. */
export type FaultOptions = Schemas["NewFault"];

/** An armed fault rule, with its `id` and what `remains` of it. */
export type SandboxFault = Schemas["Fault"];

/** A rate limit: `requests_per_second` (null lifts it) and `burst`. */
export type RateLimitOptions = Schemas["RateLimit"];

/** One API request of the partner, as the request log keeps it. */
export type RequestLogEntry = Schemas["RequestLogEntry"];

/** Which requests `requests()` lists: every field given must match. */
export type RequestFilter = Omit<
  NonNullable<paths["/_sandbox/requests"]["get"]["parameters"]["query"]>,
  "cursor" | "page_size"
>;
/** The partner's readiness report: the profile's checks decided, and what they were decided on. */
export type ReadinessReport = Schemas["ReadinessReport"];

type Post = { post: { requestBody?: { content: { "application/json": unknown } } } };
/** The JSON body a route takes. */
type Json<P extends keyof paths> = paths[P] extends Post
  ? NonNullable<paths[P]["post"]["requestBody"]>["content"]["application/json"]
  : never;
/** The JSON a route answers with. */
type Answer<P extends keyof paths> = paths[P] extends {
  post: { responses: { 200: { content: { "application/json": infer A } } } };
}
  ? A
  : never;

export interface SandboxControls {
  /** Where the sandbox clock is. */
  clock(): Promise<SandboxClockReading>;
  /**
   * Moves the clock forward by `seconds`, or `to` a later time, running in order everything
   * scheduled until then; resolves once it has (with the number of jobs run).
   */
  advanceClock(
    by: { seconds: number } | { to: string | Date },
  ): Promise<SandboxClockReading & { ran: number }>;
  /** Walks the resource to `status` along its lifecycle (one event per step); `force` sets it directly. */
  setStatus<C extends SandboxCollection>(
    collection: C,
    id: string,
    status: SandboxStatus<C>,
    options?: { force?: boolean },
  ): Promise<SandboxResourceOf<C>>;
  /** Money arriving on the autoramp's deposit rail: resolves to the transaction it makes. */
  deposit(
    autorampId: string,
    options: DepositOptions,
  ): Promise<SandboxResourceOf<"autoramp-transactions">>;
  /** Adds a bank account (fiat address) for the customer. */
  addFiatAddress(
    customerId: string,
    options: FiatAddressOptions,
  ): Promise<SandboxResourceOf<"addresses/fiat">>;
  /** Adds a webhook of the partner. */
  addWebhook(options: WebhookOptions): Promise<Schemas["Webhook"]>;
  /** Every delivery attempt recorded that matches the filter (all of it), newest first. */
  events(filter?: EventFilter): Promise<DeliveryAttempt[]>;
  /** Sends the event again now; resolves to the attempt. */
  redeliver(eventId: string): Promise<DeliveryAttempt>;
  /** The rate table: each currency's value in USD. */
  rates(): Promise<SandboxRates>;
  /** Changes the values of the currencies named (the others stay); resolves to the whole table. */
  setRates(rates: Schemas["RateChange"]["rates"]): Promise<SandboxRates>;
  /** Whether the quote is one this sandbox signed, unchanged, and whether its times have passed. */
  verifyQuote(quote: Schemas["QuoteToVerify"]): Promise<QuoteVerdict>;
  /** Arms a fault rule for this partner's requests or deliveries; resolves to it, with its id. */
  armFault(rule: FaultOptions): Promise<SandboxFault>;
  /** The armed fault rules, oldest first. */
  faults(): Promise<SandboxFault[]>;
  /** Disarms the rule; resolves to it as it was. */
  disarmFault(faultId: string): Promise<SandboxFault>;
  /** Limits this partner's requests a second (`requests_per_second: null` lifts the limit). */
  setRateLimit(limit: RateLimitOptions): Promise<Schemas["RateLimitSetting"]>;
  /** Every request of the log that matches the filter, newest first. */
  requests(filter?: RequestFilter): Promise<RequestLogEntry[]>;
  /** The partner back to what it started with (its clock stays where it is); disarms every rule. */
  reset(): Promise<void>;
  /** The partner's readiness report: each check of the profile, and the coverage behind it. */
  readiness(): Promise<ReadinessReport>;
}

/** A partner of a test's own: a fresh API key, and the sandbox's routes under it. */
export interface SandboxPartner extends SandboxControls {
  /** The partner's API key: send it as X-API-Key (the client's `apiKey`). */
  apiKey: string;
  /** The sandbox's base URL. */
  url: string;
}

/** A sandbox route refused the call: its status and the problem body it answered with. */
export class SandboxControlError extends Error {
  override name = "SandboxControlError";
  readonly status: number;
  readonly body: unknown;

  constructor(method: string, path: string, status: number, body: unknown) {
    const detail = (body as { detail?: unknown } | undefined)?.detail;
    super(`${method} ${path} answered ${status}${typeof detail === "string" ? `: ${detail}` : ""}`);
    this.status = status;
    this.body = body;
  }
}

export interface SandboxControlsOptions {
  /**
   * Sent as X-API-Key: the partner whose clock, simulations and event log these are (each key is
   * a partner of its own). Default "sandbox-key", the key of the example data.
   */
  apiKey?: string;
}

/** A new API key, which no other test has: a partner of its own. */
export function newApiKey(): string {
  return `sandbox-test-${randomUUID()}`;
}

/**
 * A partner of its own, for one test, on the sandbox at `baseUrl` (this process's or another's):
 * a fresh API key and the sandbox's routes bound to it. Its data is made at its first request.
 */
export function sandboxPartner(baseUrl: string): SandboxPartner {
  const apiKey = newApiKey();
  return { apiKey, url: baseUrl.replace(/\/+$/, ""), ...sandboxControls(baseUrl, { apiKey }) };
}

/** What an openapi-fetch call resolves to. */
interface Fetched<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a call that succeeded; a SandboxControlError for one the sandbox refused. */
async function dataOf<T>(
  method: "GET" | "POST" | "PUT" | "DELETE",
  call: Promise<Fetched<T>>,
): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) {
    const { pathname } = new URL(response.url);
    throw new SandboxControlError(method, pathname, response.status, error);
  }
  return data as T;
}

/** The typed sandbox routes of the sandbox at `baseUrl` (this process's or another's). */
export function sandboxControls(
  baseUrl: string,
  { apiKey = "sandbox-key" }: SandboxControlsOptions = {},
): SandboxControls {
  const client = createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ""),
    headers: { "X-API-Key": apiKey },
  });
  const id = (value: string) => ({ params: { path: { id: value } } });
  return {
    clock: () => dataOf("GET", client.GET("/_sandbox/clock")),
    advanceClock: (by) =>
      dataOf(
        "POST",
        client.POST("/_sandbox/clock/advance", {
          body: "to" in by ? { to: by.to instanceof Date ? by.to.toISOString() : by.to } : by,
        }),
      ),
    setStatus: (collection, resourceId, status, options = {}) =>
      // The collection names one of the five status routes; each takes { status, force }.
      dataOf(
        "POST",
        client.POST(`/_sandbox/${collection}/{id}/status` as "/_sandbox/customers/{id}/status", {
          ...id(resourceId),
          body: { status, ...options } as Json<"/_sandbox/customers/{id}/status">,
        }),
      ) as never,
    deposit: (autorampId, options) =>
      dataOf(
        "POST",
        client.POST("/_sandbox/autoramps/{id}/deposits", { ...id(autorampId), body: options }),
      ),
    addFiatAddress: (customerId, options) =>
      dataOf(
        "POST",
        client.POST("/_sandbox/customers/{id}/fiat-addresses", {
          ...id(customerId),
          body: options,
        }),
      ),
    addWebhook: (options) => dataOf("POST", client.POST("/_sandbox/webhooks", { body: options })),
    events: async (filter = {}) => {
      const attempts: DeliveryAttempt[] = [];
      let cursor: string | undefined;
      do {
        const query = { ...filter, page_size: 100, ...(cursor !== undefined && { cursor }) };
        const page = await dataOf("GET", client.GET("/_sandbox/events", { params: { query } }));
        attempts.push(...page.items);
        cursor = page.cursor;
      } while (cursor !== undefined);
      return attempts;
    },
    redeliver: (eventId) =>
      dataOf("POST", client.POST("/_sandbox/events/{id}/redeliver", id(eventId))),
    rates: async () => (await dataOf("GET", client.GET("/_sandbox/rates"))).rates,
    setRates: async (rates) =>
      (await dataOf("POST", client.POST("/_sandbox/rates", { body: { rates } }))).rates,
    verifyQuote: (quote) => dataOf("POST", client.POST("/_sandbox/quotes/verify", { body: quote })),
    armFault: (rule) => dataOf("POST", client.POST("/_sandbox/faults", { body: rule })),
    faults: async () => (await dataOf("GET", client.GET("/_sandbox/faults"))).items,
    disarmFault: (faultId) => dataOf("DELETE", client.DELETE("/_sandbox/faults/{id}", id(faultId))),
    setRateLimit: (limit) => dataOf("PUT", client.PUT("/_sandbox/rate-limit", { body: limit })),
    requests: async (filter = {}) => {
      const entries: RequestLogEntry[] = [];
      let cursor: string | undefined;
      do {
        const query = { ...filter, page_size: 100, ...(cursor !== undefined && { cursor }) };
        const page = await dataOf("GET", client.GET("/_sandbox/requests", { params: { query } }));
        entries.push(...page.items);
        cursor = page.cursor;
      } while (cursor !== undefined);
      return entries;
    },
    reset: async () => {
      await dataOf("POST", client.POST("/_sandbox/reset"));
    },
    readiness: () => dataOf("GET", client.GET("/_sandbox/readiness")),
  };
}
