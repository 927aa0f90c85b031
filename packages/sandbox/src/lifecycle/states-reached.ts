// The readiness counts of a resource entering its current state: one for its kind, and one for
// its kind and variant where the kind has variants a readiness check asks for (a customer's type,
// a transaction's ramp type), so that "a Business customer Active" can be told apart.
import type { ReadinessCount } from "../readiness/index.js";
import type { CollectionName, Resource } from "../store/sandbox-data.js";
import { rampTypeOf } from "./ramp-type.js";

/** The variant of a resource a check may ask for, by its collection. */
const VARIANTS: Partial<Record<CollectionName, (resource: Resource) => string | undefined>> = {
  customers: (customer) =>
    typeof customer.customer_type === "string" ? customer.customer_type : undefined,
  autoramp_transactions: rampTypeOf,
};

export function stateCounts(collection: CollectionName, resource: Resource): ReadinessCount[] {
  const state = String(resource.status);
  const counts: ReadinessCount[] = [{ kind: "state", name: collection, detail: state, n: 1 }];
  const variant = VARIANTS[collection]?.(resource);
  if (variant !== undefined) {
    counts.push({ kind: "state", name: `${collection}/${variant}`, detail: state, n: 1 });
  }
  return counts;
}
