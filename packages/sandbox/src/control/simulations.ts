// The simulation routes under /_sandbox/: a status walked along the lifecycle (or forced), a fiat
// address and a webhook added (the API cannot add either). Each answers the resource it changed
// or made, and sends the events the change sends.
import type { FiatAddress, Webhook } from "@org/payments-types";
import { type Answer, notFound, ok, problemAnswer } from "../answer/answer.js";
import { newResourceId } from "../api/resource-id.js";
import type { components } from "../generated/test-mode.js";
import type { ChangeContext } from "../lifecycle/change-context.js";
import { announceCreated, forceStatus, walkTo } from "../lifecycle/changes.js";
import { FIAT_ADDRESS, type Lifecycle, reachableFrom } from "../lifecycle/lifecycles.js";

type NewFiatAddress = components["schemas"]["NewFiatAddress"];
type NewWebhook = components["schemas"]["NewWebhook"];

/**
 * POST /_sandbox/{collection}/{id}/status: walks the legal path to `status`, one step and one
 * event at a time, with the cascades of each step; `force` sets it directly. The document has
 * held `status` to the lifecycle's states, or, with `force`, for a transaction (whose statuses the
 * API leaves open), to any non-empty string.
 */
export async function changeStatus(
  context: ChangeContext,
  lifecycle: Lifecycle,
  id: string,
  status: string,
  force: boolean,
): Promise<Answer> {
  const stored = await context.tx.find(lifecycle.collection, id, undefined);
  if (stored === undefined) return notFound("path", "id", `no ${lifecycle.resource} ${id}`);
  const current = String(stored.resource.status);
  if (force) {
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

/**
 * POST /_sandbox/customers/{id}/fiat-addresses: adds a fiat address for the customer, as its
 * bank account, AuthorizationRequired and on its way to Registered (or the failure `outcome`
 * names), with NewBankAccount. The document has checked the fields; the IBAN may be written with
 * spaces and in lower case, and is stored without them.
 */
export async function addFiatAddress(
  context: ChangeContext,
  customerId: string,
  fields: NewFiatAddress,
): Promise<Answer> {
  const iban = fields.iban.replace(/\s+/g, "").toUpperCase();
  const found = await context.tx.find("customers", customerId, undefined);
  if (found === undefined) return notFound("path", "id", `no customer ${customerId}`);
  const customer = found.resource;
  const time = context.clock.now();
  const at = time.toISOString();
  const isThirdParty = fields.is_third_party ?? false;
  const address: FiatAddress = {
    id: newResourceId(time.getTime()),
    customer_id: customer.id,
    bank_account_identifier: { type: "Iban", iban },
    bank_details: {
      account_identifier: { type: "Iban", iban },
      is_third_party: isThirdParty,
      recipient: { name: String(customer.name), type: String(customer.customer_type) },
    },
    bank_name: fields.bank_name ?? "Sandbox Bank",
    country: fields.country ?? iban.slice(0, 2),
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

/**
 * POST /_sandbox/webhooks: adds a webhook of the partner. Its writable fields are the Webhook
 * schema's: `url` and `topics` required, `label` (default "") and `enabled` (default true).
 */
export async function addWebhook(context: ChangeContext, fields: NewWebhook): Promise<Answer> {
  const time = context.clock.now();
  const at = time.toISOString();
  const webhook: Webhook = {
    id: newResourceId(time.getTime()),
    partner_id: context.partnerId,
    created_at: at,
    updated_at: at,
    enabled: fields.enabled ?? true,
    label: fields.label ?? "",
    topics: fields.topics,
    url: fields.url,
  };
  await context.tx.insert("webhooks", webhook, undefined);
  return ok(webhook);
}
