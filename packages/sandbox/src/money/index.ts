// Money: currencies, exact decimals, the rate table, pricing and quote signatures; the rate table's
// and quote verification's test-mode routes and controls.
// Its typed controls (controls.ts) are the client side, entered directly by src/controls.ts.
export {
  BASE_CURRENCY,
  CRYPTO_DEPOSIT_ACCOUNT_TYPE,
  CURRENCIES,
  currencyFacts,
  NETWORK_FEES,
} from "./currencies.js";
export type { MoneyRows } from "./money-rows.js";
export {
  checkRoute,
  type PriceCurrency,
  type PricedCurrency,
  type PriceInput,
  PricingError,
  price,
} from "./pricing.js";
export { signatureOf, signingSecret } from "./quote-signature.js";
export { changedRates, DEFAULT_RATES, readRateChanges, readRates } from "./rates.js";
export { MONEY_ROUTES, type MoneyContext } from "./routes.js";
