// The currencies the sandbox prices and the facts its pricing reads about them: decimal places,
// chains, the rail a fiat currency is paid through, the network fee of each chain. These are the
// sandbox's own choices (the API description names none of them); the README's pricing rules list
// them, and a test holds the README's tables to these.
import type { Blockchain, DepositAccountType } from "@org/payments-types";

export type CurrencyType = "Fiat" | "Crypto";

interface Facts {
  /** Amounts of the currency are rounded to this many decimal places. */
  places: number;
}

interface FiatFacts extends Facts {
  type: "Fiat";
  /** How a customer pays the currency in: the quote's `deposit_account_type`. */
  deposit_account_type: DepositAccountType;
  /** The `rail` of the fee profile's `banking_fee_configs` that applies to the currency. */
  rail: string;
}

interface CryptoFacts extends Facts {
  type: "Crypto";
  /** The chains the token is priced on; the first is the one a request without a chain gets. */
  chains: readonly [Blockchain, ...Blockchain[]];
}

export type CurrencyFacts = FiatFacts | CryptoFacts;

export const CURRENCIES: Readonly<Record<string, CurrencyFacts>> = {
  EUR: { type: "Fiat", places: 2, deposit_account_type: "Iban", rail: "Sepa" },
  GBP: { type: "Fiat", places: 2, deposit_account_type: "ChapsFps", rail: "Fps" },
  USD: { type: "Fiat", places: 2, deposit_account_type: "AchWire", rail: "Ach" },
  BRL: { type: "Fiat", places: 2, deposit_account_type: "Pix", rail: "Pix" },
  MXN: { type: "Fiat", places: 2, deposit_account_type: "Spei", rail: "Spei" },
  USDC: {
    type: "Crypto",
    places: 6,
    chains: ["Ethereum", "Solana", "Polygon", "Arbitrum", "Base", "Stellar"],
  },
  USDT: { type: "Crypto", places: 6, chains: ["Ethereum", "Solana", "Polygon", "Arbitrum"] },
  EURC: { type: "Crypto", places: 6, chains: ["Ethereum", "Solana", "Base", "Stellar"] },
  ETH: { type: "Crypto", places: 8, chains: ["Ethereum", "Arbitrum", "Base"] },
  SOL: { type: "Crypto", places: 9, chains: ["Solana"] },
};

/** The currency network fees are set in (NETWORK_FEES) and rates are quoted against (rates.ts). */
export const BASE_CURRENCY = "USD";

/** The network fee of paying out on each chain, in BASE_CURRENCY. */
export const NETWORK_FEES: Readonly<Record<Blockchain, string>> = {
  Ethereum: "2.00",
  Arbitrum: "0.10",
  Base: "0.05",
  Polygon: "0.02",
  Solana: "0.01",
  Stellar: "0.01",
};

/** The deposit account type of a crypto source. */
export const CRYPTO_DEPOSIT_ACCOUNT_TYPE: DepositAccountType = "Wallet";

/** The `rail` of each deposit account type, for a deposit through another rail than the currency's. */
export const RAILS: Readonly<Partial<Record<DepositAccountType, string>>> = Object.fromEntries(
  Object.values(CURRENCIES).flatMap((facts) =>
    facts.type === "Fiat" ? [[facts.deposit_account_type, facts.rail]] : [],
  ),
);

export function currencyFacts(code: string): CurrencyFacts | undefined {
  return Object.hasOwn(CURRENCIES, code) ? CURRENCIES[code] : undefined;
}

export const CURRENCY_CODES = Object.keys(CURRENCIES);
