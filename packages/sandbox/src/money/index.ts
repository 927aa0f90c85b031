// Money: currencies, exact decimals, the rate table, pricing and quote signatures; the rate table's
// and quote verification's test-mode routes and controls.
export {
  type MoneyControls,
  moneyControls,
  type QuoteVerdict,
  type SandboxRates,
} from "./controls.js";
export { BASE_CURRENCY, CURRENCIES, NETWORK_FEES } from "./currencies.js";
export { DEFAULT_RATES } from "./rates.js";
export { MONEY_ROUTES, type MoneyContext } from "./routes.js";
