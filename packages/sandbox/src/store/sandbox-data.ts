// The sandbox's data: every collection of stored resources, the idempotency keys it has answered
// and the webhook deliveries it has made. This is what the state file holds.

import type { components } from "../generated/test-mode.js";
import { jsonText } from "../json/json-text.js";
import type { Settings } from "./settings.js";

export const COLLECTIONS = [
  "customers",
  "identifications",
  "signings",
  "documents",
  "autoramps",
  "autoramp_transactions",
  "fiat_addresses",
  "crypto_addresses",
  "webhooks",
  "fee_profiles",
] as const;

export type CollectionName = (typeof COLLECTIONS)[number];

export type Resource = { id: string } & Record<string, unknown>;

/** A resource with what the sandbox knows about it beyond its fields. */
export interface Stored {
  resource: Resource;
  /** The X-SUB-PARTNER-ID it was created under; null for the partner itself (and the seed). */
  sub_partner_id: string | null;
  /** The customer it belongs to, where the resource does not say so itself (autoramps). */
  customer_id?: string;
}

/** A JSON object: not null, not an array. (The store reads no module of the HTTP layer.) */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A status and a JSON body: what a request was answered, kept with its idempotency key. */
export interface AnswerRecord {
  status: number;
  body: unknown;
}

export interface IdempotentAnswer {
  method: string;
  path: string;
  fingerprint: string;
  answer: AnswerRecord;
}

/** The record as JSON.stringify writes it, a JsonText body's text not parsed again. */
export function answerRecordJson(record: AnswerRecord): string {
  if (record.body === undefined) return JSON.stringify({ status: record.status });
  return `{"status":${record.status},"body":${jsonText(record.body)}}`;
}

/**
 * One delivery attempt of a webhook event, as GET /_sandbox/events lists it: the test-mode
 * document's DeliveryAttempt. Its topic and payload are kept as the store holds them: what was
 * sent, read back from rows (or a state file) that nothing checks against the document again.
 */
export type DeliveryEvent = Omit<components["schemas"]["DeliveryAttempt"], "topic" | "payload"> & {
  topic: string;
  payload: unknown;
};

export interface SandboxData {
  collections: Record<CollectionName, Stored[]>;
  idempotency: Record<string, IdempotentAnswer>;
  /** Oldest first; the control route lists them newest first. */
  events: DeliveryEvent[];
  /** Sandbox-wide values such as the seed's rates (absent in a 0.1 state file). */
  settings?: Settings;
}

const STATE_FORMAT = "payments-mock-sandbox/1";

/** The reason `value` is not sandbox data, or undefined when it is. */
export function invalidDataReason(value: unknown): string | undefined {
  if (!isObject(value)) return "it is not a JSON object";
  if (value.format !== STATE_FORMAT) return `its "format" is not "${STATE_FORMAT}"`;
  if (!isObject(value.collections)) return `"collections" is not an object`;
  for (const name of COLLECTIONS) {
    const list = value.collections[name];
    if (!Array.isArray(list)) return `"collections.${name}" is not an array`;
    const bad = list.findIndex(
      (entry) =>
        !isObject(entry) || !isObject(entry.resource) || typeof entry.resource.id !== "string",
    );
    if (bad >= 0) return `"collections.${name}.${bad}" is not a stored resource with an id`;
  }
  if (!isObject(value.idempotency)) return `"idempotency" is not an object`;
  if (!Array.isArray(value.events)) return `"events" is not an array`;
  return undefined;
}
