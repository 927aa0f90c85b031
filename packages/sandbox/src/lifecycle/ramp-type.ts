// Which way an autoramp transaction moves money, from its amounts' currency types.
import type { Resource } from "../store/sandbox-data.js";

/** Onramp: fiat in, crypto out; Offramp: crypto in, fiat out; Swap: crypto to crypto. */
export function rampTypeOf(transaction: Resource): string | undefined {
  const typeOf = (field: string) =>
    (transaction[field] as { currency?: { type?: string } } | undefined)?.currency?.type;
  const from = typeOf("source_amount");
  const to = typeOf("destination_amount");
  if (from === "Fiat" && to === "Crypto") return "Onramp";
  if (from === "Crypto" && to === "Fiat") return "Offramp";
  if (from === "Crypto" && to === "Crypto") return "Swap";
  return undefined;
}
