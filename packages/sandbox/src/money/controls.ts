// The money's part of the typed controls.
import { type ControlsClient, dataOf, type Schemas } from "../test-mode/client.js";

/** Each supported currency's value in USD, a decimal string. */
export type SandboxRates = Schemas["RateTable"]["rates"];

/** Whether a quote is one the sandbox signed, unchanged, and whether its times have passed. */
export type QuoteVerdict = Schemas["QuoteVerdict"];

export interface MoneyControls {
  /** The rate table: each currency's value in USD. */
  rates(): Promise<SandboxRates>;
  /** Changes the values of the currencies named (the others stay); resolves to the whole table. */
  setRates(rates: Schemas["RateChange"]["rates"]): Promise<SandboxRates>;
  /** Whether the quote is one this sandbox signed, unchanged, and whether its times have passed. */
  verifyQuote(quote: Schemas["QuoteToVerify"]): Promise<QuoteVerdict>;
}

export function moneyControls(client: ControlsClient): MoneyControls {
  return {
    rates: async () => (await dataOf("GET", client.GET("/_sandbox/rates"))).rates,
    setRates: async (rates) =>
      (await dataOf("POST", client.POST("/_sandbox/rates", { body: { rates } }))).rates,
    verifyQuote: (quote) => dataOf("POST", client.POST("/_sandbox/quotes/verify", { body: quote })),
  };
}
