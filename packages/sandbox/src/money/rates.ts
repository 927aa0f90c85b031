// The sandbox's market: each currency's value in the base currency (USD), from which pricing.ts
// derives the rate of every pair. The defaults below; a seed's `rates` and the control route
// POST /_sandbox/rates change them (a value each, the others kept).

import { BASE_CURRENCY, CURRENCY_CODES, currencyFacts } from "./currencies.js";
import type { MoneyRows } from "./money-rows.js";

/** Each supported currency's value in BASE_CURRENCY: a positive decimal string, by code. */
export type RateTable = Readonly<Record<string, string>>;

export const DEFAULT_RATES: RateTable = {
  USD: "1",
  EUR: "1.0823",
  GBP: "1.2712",
  BRL: "0.1765",
  MXN: "0.0581",
  USDC: "1",
  USDT: "0.9998",
  EURC: "1.0791",
  ETH: "3512.40",
  SOL: "148.35",
};

/** A value must be a plain positive decimal of at most this many characters. */
const MAX_RATE_LENGTH = 32;

/** What is wrong with one entry of a rate change. */
export interface RateProblem {
  /** The currency code, as the change spells it; "" for the change as a whole. */
  code: string;
  message: string;
}

/**
 * The changes `value` makes to a rate table (an object of code → value in USD), or the problems
 * that keep it from being one.
 */
export function readRateChanges(
  value: unknown,
): { changes: Record<string, string> } | { problems: RateProblem[] } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      problems: [
        { code: "", message: `must be an object of currency code → value in ${BASE_CURRENCY}` },
      ],
    };
  }
  const problems: RateProblem[] = [];
  for (const [code, rate] of Object.entries(value)) {
    const problem = rateProblem(code, rate);
    if (problem !== undefined) problems.push({ code, message: problem });
  }
  return problems.length > 0 ? { problems } : { changes: value as Record<string, string> };
}

function rateProblem(code: string, rate: unknown): string | undefined {
  if (currencyFacts(code) === undefined) {
    return `is not a currency the sandbox prices; supported: ${CURRENCY_CODES.join(", ")}`;
  }
  if (code === BASE_CURRENCY) {
    return rate === "1" ? undefined : `is the base currency: its value is "1" and stays so`;
  }
  const valid =
    typeof rate === "string" &&
    rate.length <= MAX_RATE_LENGTH &&
    /^[0-9]+(\.[0-9]+)?$/.test(rate) &&
    /[1-9]/.test(rate);
  return valid
    ? undefined
    : `must be a positive decimal string (its value in ${BASE_CURRENCY}) of at most ${MAX_RATE_LENGTH} characters, such as "1.0823"`;
}

/** The table with the changes made (each a value checked by readRateChanges). */
export function changedRates(table: RateTable, changes: Record<string, string>): RateTable {
  return { ...table, ...changes };
}

/** The sandbox's rate table now: the stored one, or the defaults. `lock` holds it until the transaction ends. */
export async function readRates(store: MoneyRows, lock = false): Promise<RateTable> {
  const stored = await store.setting("rates", lock);
  // A table stored before a currency was added lacks it: the default stands in.
  return stored === undefined ? DEFAULT_RATES : { ...DEFAULT_RATES, ...JSON.parse(stored) };
}

/** Makes the changes (checked by readRateChanges) to the stored table; resolves to the new table. */
export async function changeRates(
  store: MoneyRows,
  changes: Record<string, string>,
): Promise<RateTable> {
  // A row to lock, so that concurrent changes (Postgres) apply one after the other.
  await store.initSetting("rates", JSON.stringify(DEFAULT_RATES));
  const table = changedRates(await readRates(store, true), changes);
  await store.setSetting("rates", JSON.stringify(table));
  return table;
}
