// A fiat address added for a customer (the API cannot add one), on its way to Registered, with its
// events.

import { quoted } from "@org/payments-engine";
import type { FiatAddress } from "@org/payments-types";
import { type Answer, notFound, ok } from "../answers/answer.js";
import type { components } from "../generated/test-mode.js";
import type { ChangeContext } from "../lifecycle/change-context.js";
import { announceCreated } from "../lifecycle/changes.js";
import { FIAT_ADDRESS } from "../lifecycle/lifecycles.js";
import { newResourceId } from "../store/resource-id.js";
import type { SimulationRows } from "./simulation-rows.js";

type NewFiatAddress = components["schemas"]["NewFiatAddress"];

/**
 * POST /_sandbox/customers/{id}/fiat-addresses: adds a fiat address for the customer, as its
 * bank account, AuthorizationRequired and on its way to Registered (or the failure `outcome`
 * names), with NewBankAccount. The document has checked the fields; the IBAN may be written with
 * spaces and in lower case, and is stored without them.
 */
export async function addFiatAddress(
  context: ChangeContext<SimulationRows>,
  customerId: string,
  fields: NewFiatAddress,
): Promise<Answer> {
  const iban = fields.iban.replace(/\s+/g, "").toUpperCase();
  const found = await context.tx.find("customers", customerId, undefined);
  if (found === undefined) return notFound("path", "id", `no customer ${quoted(customerId)}`);
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
