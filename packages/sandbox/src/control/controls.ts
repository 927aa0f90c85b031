// Typed functions for the sandbox's own routes under /_sandbox/ (the clock, the simulations, the
// event log): what startMock({ stateful: true }) returns beside the URL, and what
// sandboxControls(url) gives for a sandbox in another process. Each is one HTTP call to the
// same route a test could call itself.
import type { DeliveryEvent } from "../store/state.js";

/** A webhook topic, as the API names it (a test holds it to the spec's). */
export type SandboxTopic =
  | "Transaction"
  | "NewBankAccount"
  | "NewAutoramp"
  | "DepositAddressCreated"
  | "RegisterFiatAddressStatus"
  | "RegisterAutorampStatus"
  | "TransactionStatus"
  | "CustomerCreated"
  | "CustomerStatus"
  | "IdentificationStatus"
  | "Ping";

/** The collections whose status the sandbox changes, by their path in the API. */
export type SandboxCollection =
  | "customers"
  | "identifications"
  | "autoramps"
  | "addresses/fiat"
  | "autoramp-transactions";

/** A resource as the API answers it: its id, its status, and its other fields. */
export interface SandboxResource {
  id: string;
  status?: string;
  [field: string]: unknown;
}

/** A webhook event as the sandbox sends it. */
export interface SandboxEvent {
  id: string;
  topic: SandboxTopic;
  created_at: string;
  customer_id: string | null;
  data: unknown;
}

/** One attempt to deliver an event, as GET /_sandbox/events lists them (newest first). */
export interface DeliveryAttempt extends Omit<DeliveryEvent, "topic" | "payload"> {
  topic: SandboxTopic;
  payload: SandboxEvent;
}

export interface SandboxClockReading {
  /** Sandbox now. */
  now: string;
  /** How far sandbox time is ahead of real time. */
  ahead_by_seconds: number;
}

export interface DepositOptions {
  /** A decimal string, such as "1000.00". */
  amount: string;
  /** The code (fiat) or token (crypto) of one of the autoramp's source currencies; default its first. */
  currency?: string;
  /** The deposit account type it arrives through; default the currency's own (Iban for EUR, Wallet for crypto). */
  rail?: string;
  /** Where the transaction ends; default Completed. */
  outcome?: "Completed" | "FundsRejected" | "PayoutFailed";
}

export interface FiatAddressOptions {
  iban: string;
  bank_name?: string;
  country?: string;
  currency?: string;
  label?: string;
  is_third_party?: boolean;
  /** Where the registration ends; default Registered. */
  outcome?: "AuthorizationFailed" | "RegistrationFailed";
}

export interface WebhookOptions {
  url: string;
  topics: SandboxTopic[];
  label?: string;
  enabled?: boolean;
}

/** Which attempts `events()` lists: every field given must match. */
export interface EventFilter {
  /** The event's id. */
  id?: string;
  webhook_id?: string;
  topic?: SandboxTopic;
  /** The customer the event is about. */
  customer_id?: string;
  delivered?: boolean;
}

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
  setStatus(
    collection: SandboxCollection,
    id: string,
    status: string,
    options?: { force?: boolean },
  ): Promise<SandboxResource>;
  /** Money arriving on the autoramp's deposit rail: resolves to the transaction it makes. */
  deposit(autorampId: string, options: DepositOptions): Promise<SandboxResource>;
  /** Adds a bank account (fiat address) for the customer. */
  addFiatAddress(customerId: string, options: FiatAddressOptions): Promise<SandboxResource>;
  /** Adds a webhook of the partner. */
  addWebhook(options: WebhookOptions): Promise<SandboxResource>;
  /** Every delivery attempt recorded that matches the filter (all of it), newest first. */
  events(filter?: EventFilter): Promise<DeliveryAttempt[]>;
  /** Sends the event again now; resolves to the attempt. */
  redeliver(eventId: string): Promise<DeliveryAttempt>;
  /** Back to the seed (the clock stays where it is). */
  reset(): Promise<void>;
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
  /** Sent as X-API-Key; the sandbox takes any. Default "sandbox-controls". */
  apiKey?: string;
}

/** The typed sandbox routes of the sandbox at `baseUrl` (this process's or another's). */
export function sandboxControls(
  baseUrl: string,
  { apiKey = "sandbox-controls" }: SandboxControlsOptions = {},
): SandboxControls {
  const base = baseUrl.replace(/\/+$/, "");
  const send = async <T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${base}/_sandbox/${path}`, {
      method,
      headers: {
        "X-API-Key": apiKey,
        ...(body !== undefined && { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const answer = text === "" ? undefined : JSON.parse(text);
    if (!response.ok)
      throw new SandboxControlError(method, `/_sandbox/${path}`, response.status, answer);
    return answer as T;
  };
  const id = encodeURIComponent;
  return {
    clock: () => send("GET", "clock"),
    advanceClock: (by) =>
      send(
        "POST",
        "clock/advance",
        "to" in by ? { to: by.to instanceof Date ? by.to.toISOString() : by.to } : by,
      ),
    setStatus: (collection, resourceId, status, options = {}) =>
      send("POST", `${collection}/${id(resourceId)}/status`, { status, ...options }),
    deposit: (autorampId, options) => send("POST", `autoramps/${id(autorampId)}/deposits`, options),
    addFiatAddress: (customerId, options) =>
      send("POST", `customers/${id(customerId)}/fiat-addresses`, options),
    addWebhook: (options) => send("POST", "webhooks", options),
    events: async (filter = {}) => {
      const attempts: DeliveryAttempt[] = [];
      const query = new URLSearchParams({ page_size: "100" });
      for (const [name, value] of Object.entries(filter)) {
        if (value !== undefined) query.set(name, String(value));
      }
      for (;;) {
        const page = await send<{ items: DeliveryAttempt[]; cursor?: string }>(
          "GET",
          `events?${query}`,
        );
        attempts.push(...page.items);
        if (page.cursor === undefined) return attempts;
        query.set("cursor", page.cursor);
      }
    },
    redeliver: (eventId) => send("POST", `events/${id(eventId)}/redeliver`),
    reset: async () => {
      await send("POST", "reset");
    },
  };
}
