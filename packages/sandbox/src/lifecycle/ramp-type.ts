// Which way an autoramp transaction moves money, from its amounts' currency types.
import type { Resource } from "../store/sandbox-data.js";

/** Onramp: fiat in, crypto out; Offramp: crypto in, fiat out; Swap: crypto to crypto. */
export function rampTypeOf(transaction: Resource): string | undefined {
  const from = currencyTypeOf(transaction, "source_amount");
  const to = currencyTypeOf(transaction, "destination_amount");
  if (from === "Fiat" && to === "Crypto") return "Onramp";
  if (from === "Crypto" && to === "Fiat") return "Offramp";
  if (from === "Crypto" && to === "Crypto") return "Swap";
  return undefined;
}

/** Whether the transaction pays out fiat (an offramp): its payout is a wire, not a crypto transfer. */
export function paysOutFiat(transaction: Resource): boolean {
  return currencyTypeOf(transaction, "destination_amount") === "Fiat";
}

function currencyTypeOf(transaction: Resource, field: string): string | undefined {
  return (transaction[field] as { currency?: { type?: string } } | undefined)?.currency?.type;
}
