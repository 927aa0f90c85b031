// The simulation routes under /_sandbox/: a status walked along the lifecycle (or forced), a fiat
// address and a webhook added (the API cannot add either). Each answers the resource it changed
// or made, and sends the events the change sends.
import { randomUUID } from "node:crypto";
import { type FiatAddress, WEBHOOK_TOPICS, type Webhook } from "@org/payments-types";
import { type Answer, notFound, ok, problemAnswer } from "../api/answer.js";
import { SANDBOX_PARTNER_ID } from "../api/api-routes.js";
import type { ChangeContext } from "../lifecycle/change-context.js";
import { announceCreated, forceStatus, walkTo } from "../lifecycle/changes.js";
import {
  FIAT_ADDRESS,
  type Lifecycle,
  outcomesOf,
  reachableFrom,
  TRANSACTION,
} from "../lifecycle/lifecycles.js";
import {
  type Checked,
  invalidBody,
  invalidField,
  optionalBoolean,
  optionalEnum,
  optionalString,
  readFields,
  requiredString,
  unknownFields,
} from "./control-input.js";

/**
 * POST /_sandbox/{collection}/{id}/status: walks the legal path to `status`, one step and one
 * event at a time, with the cascades of each step; `"force": true` sets it directly.
 */
export async function changeStatus(
  context: ChangeContext,
  lifecycle: Lifecycle,
  id: string,
  body: Record<string, unknown>,
): Promise<Answer> {
  const read = readFields({
    status: requiredString(body, "status"),
    force: optionalBoolean(body, "force"),
  });
  if ("errors" in read) return invalidBody(read.errors);
  const { status, force } = read.fields;
  const extra = unknownFields(body, ["status", "force"]);
  // A transaction's statuses are open in the API: forced, any value goes.
  const open = force === true && lifecycle === TRANSACTION;
  if (!open && !lifecycle.states.includes(status)) {
    extra.push(invalidField("status", "enum", `must be one of ${lifecycle.states.join(", ")}`));
  }
  if (extra.length > 0) return invalidBody(extra);
  const stored = await context.tx.find(lifecycle.collection, id, undefined);
  if (stored === undefined) return notFound("path", "id", `no ${lifecycle.resource} ${id}`);
  const current = String(stored.resource.status);
  if (force === true) {
    await forceStatus(context, lifecycle, stored, status);
    return ok(stored.resource);
  }
  // Already there: nothing changes, no event.
  if (status === current) return ok(stored.resource);
  if (await walkTo(context, lifecycle, stored, status)) return ok(stored.resource);
  const reachable = reachableFrom(lifecycle, current);
  const from =
    reachable.length === 0
      ? `nothing can be reached from ${current}`
      : `from ${current} it can reach ${reachable.join(", ")}`;
  return {
    status: 422,
    body: {
      ...problemAnswer(422, "illegal-transition", "Illegal transition", [
        {
          location: "body",
          field: "status",
          rule: "transition",
          message: `the ${lifecycle.resource} ${id} is ${current} and cannot become ${status}: ${from} (or send "force": true to set it anyway)`,
        },
      ]).body,
      current,
      requested: status,
      reachable,
    },
  };
}

const FIAT_ADDRESS_FIELDS = [
  "iban",
  "bank_name",
  "country",
  "currency",
  "label",
  "is_third_party",
  "outcome",
] as const;

/** An IBAN: a country code, two check digits and up to 30 letters or digits (no spaces). */
const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/;

/**
 * POST /_sandbox/customers/{id}/fiat-addresses: adds a fiat address for the customer, as its
 * bank account, AuthorizationRequired and on its way to Registered (or the failure `outcome`
 * names), with NewBankAccount.
 */
export async function addFiatAddress(
  context: ChangeContext,
  customerId: string,
  body: Record<string, unknown>,
): Promise<Answer> {
  // Spaces (as IBANs are printed) and lower case are taken; the IBAN is stored without them.
  const iban =
    typeof body.iban === "string" ? body.iban.replace(/\s+/g, "").toUpperCase() : body.iban;
  const read = readFields({
    iban: requiredString({ iban }, "iban"),
    bank_name: optionalString(body, "bank_name"),
    country: optionalString(body, "country"),
    currency: optionalString(body, "currency"),
    label: optionalString(body, "label"),
    is_third_party: optionalBoolean(body, "is_third_party"),
    outcome: optionalEnum(body, "outcome", outcomesOf(FIAT_ADDRESS)),
  });
  if ("errors" in read) return invalidBody(read.errors);
  const fields = read.fields;
  const problems = unknownFields(body, FIAT_ADDRESS_FIELDS);
  if (!IBAN.test(fields.iban)) {
    problems.push(
      invalidField(
        "iban",
        "pattern",
        "must be an IBAN: a country code, two check digits, then 10 to 30 letters or digits",
      ),
    );
  }
  if (problems.length > 0) return invalidBody(problems);
  const found = await context.tx.find("customers", customerId, undefined);
  if (found === undefined) return notFound("path", "id", `no customer ${customerId}`);
  const customer = found.resource;
  const at = context.clock.now().toISOString();
  const isThirdParty = fields.is_third_party ?? false;
  const address: FiatAddress = {
    id: randomUUID(),
    customer_id: customer.id,
    bank_account_identifier: { type: "Iban", iban: fields.iban },
    bank_details: {
      account_identifier: { type: "Iban", iban: fields.iban },
      is_third_party: isThirdParty,
      recipient: { name: String(customer.name), type: String(customer.customer_type) },
    },
    bank_name: fields.bank_name ?? "Sandbox Bank",
    country: fields.country ?? fields.iban.slice(0, 2),
    currency: fields.currency ?? "EUR",
    is_third_party: isThirdParty,
    ownership_verified: false,
    status: "AuthorizationRequired",
    created_at: at,
    updated_at: at,
    ...(fields.label !== undefined && { label: fields.label }),
  };
  const scope = found.sub_partner_id ?? undefined;
  await context.tx.insert("fiat_addresses", address, scope, customer.id);
  const stored = { resource: address, sub_partner_id: found.sub_partner_id };
  await announceCreated(context, FIAT_ADDRESS, stored, fields.outcome);
  return ok(address);
}

const WEBHOOK_FIELDS = ["url", "topics", "label", "enabled"] as const;

/**
 * POST /_sandbox/webhooks: adds a webhook of the partner. Its writable fields are the Webhook
 * schema's: `url` and `topics` required, `label` (default "") and `enabled` (default true).
 */
export async function addWebhook(
  context: ChangeContext,
  body: Record<string, unknown>,
): Promise<Answer> {
  const read = readFields({
    url: webhookUrl(body),
    label: optionalString(body, "label"),
    enabled: optionalBoolean(body, "enabled"),
  });
  const problems = [
    ...("errors" in read ? read.errors : []),
    ...topicProblems(body.topics),
    ...unknownFields(body, WEBHOOK_FIELDS),
  ];
  if ("errors" in read || problems.length > 0) return invalidBody(problems);
  const { url, label, enabled } = read.fields;
  const at = context.clock.now().toISOString();
  const webhook: Webhook = {
    id: randomUUID(),
    partner_id: SANDBOX_PARTNER_ID,
    created_at: at,
    updated_at: at,
    enabled: enabled ?? true,
    label: label ?? "",
    topics: body.topics as Webhook["topics"],
    url,
  };
  await context.tx.insert("webhooks", webhook, undefined);
  return ok(webhook);
}

function webhookUrl(body: Record<string, unknown>): Checked<string> {
  const checked = requiredString(body, "url");
  if ("error" in checked || /^https?:\/\/[^/\s]+/i.test(checked.value)) return checked;
  return { error: invalidField("url", "format", "must be an http:// or https:// URL") };
}

function topicProblems(topics: unknown) {
  if (topics === undefined) return [invalidField("topics", "required", "is required")];
  if (!Array.isArray(topics)) {
    return [invalidField("topics", "type", "must be an array of webhook topics")];
  }
  return topics.flatMap((topic, index) =>
    typeof topic === "string" && (WEBHOOK_TOPICS as readonly string[]).includes(topic)
      ? []
      : [invalidField(`topics.${index}`, "enum", `must be one of ${WEBHOOK_TOPICS.join(", ")}`)],
  );
}
