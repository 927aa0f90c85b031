// GET /autoramps/quote and GET /exchange-rate: the request priced by pricing.ts at the sandbox's
// rates and the customer's fee profile, answered with what the request sent echoed back, the
// quote's times counted from the sandbox's now and the sandbox's own signature.
import type { ProblemError } from "@org/payments-engine";
import type {
  CreateAutorampRequest,
  CryptoCurrency,
  ExchangeRate,
  FeeProfile,
  GetAutorampQuoteQuery,
  GetExchangeRateQuery,
  RecipientAccount,
  SignedAutorampQuote,
} from "@org/payments-types";
import { type Answer, ok, problemAnswer } from "../answers/answer.js";
import {
  checkRoute,
  type MoneyRows,
  type PricedCurrency,
  type PriceInput,
  PricingError,
  price,
  readRates,
  signatureOf,
  signingSecret,
} from "../money/index.js";
import type { StoreTransaction } from "../store/store.js";
import type { RouteContext } from "./route-context.js";

/** The rate lock of a quote that asks for none. */
export const DEFAULT_RATE_LOCK_MINUTES = 30;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** The latest time a date-time can say: the end of year 9999. */
const LAST_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

type QueryParameters = Record<string, string | undefined>;

/** The fee profile that prices a customer's payments: the sandbox's first (the seed's first). */
export async function feeProfileOf(store: PricingRows): Promise<FeeProfile | undefined> {
  const [first] = await store.list("fee_profiles");
  return first?.resource as FeeProfile | undefined;
}

/** What pricing reads of the store: the rate table (a setting) and the fee profile. */
type PricingRows = MoneyRows & Pick<StoreTransaction, "list">;

/** What `price` needs from the store besides the request: the rate table and the fee profile. */
export async function pricingData(
  store: PricingRows,
): Promise<Pick<PriceInput, "rates" | "profile">> {
  const [rates, profile] = [await readRates(store), await feeProfileOf(store)];
  return profile === undefined ? { rates } : { rates, profile };
}

export async function answerQuote(
  context: RouteContext,
  customerId: string,
  now: Date,
): Promise<Answer> {
  const query = context.query as QueryParameters & GetAutorampQuoteQuery;
  // Prism has checked it is a boolean; the query keeps it as text.
  const isThirdParty = context.query.is_third_party === "true";
  const times = quoteTimes(query, now.getTime());
  if ("errors" in times) return invalid(times.errors);
  const slippage = negativeBips(
    "query",
    "slippage_tolerance_in_bips",
    query.slippage_tolerance_in_bips,
  );
  if (slippage !== undefined) return slippage;
  const priced = priceOrProblem(
    {
      source: currency(query.source_currency_code, query.source_currency_chain),
      destination: currency(query.destination_currency_code, query.destination_currency_chain),
      ...(query.amount_in !== undefined && { amount_in: query.amount_in }),
      ...(query.amount_out !== undefined && { amount_out: query.amount_out }),
      is_third_party: isThirdParty,
      ...(await pricingData(context.store)),
    },
    (field) => field,
  );
  if ("status" in priced) return priced;
  const quote: Omit<SignedAutorampQuote, "signature"> = {
    amount_in: priced.amount_in,
    amount_out: priced.amount_out,
    customer_id: customerId,
    destination_currency: cryptoCurrency(priced.destination),
    source_currency: cryptoCurrency(priced.source),
    fee: priced.fee,
    fee_settlement: priced.fee_settlement,
    is_third_party: isThirdParty,
    quote_id: crypto.randomUUID(),
    rate: priced.rate,
    rate_expiry_policy: query.rate_expiry_policy,
    recipient_account: recipientAccount(query.recipient_account, priced.destination),
    valid_until: new Date(times.validUntil).toISOString(),
    deposit_account_type: priced.deposit_account_type,
    rate_lock_valid_until: new Date(times.rateLockValidUntil).toISOString(),
    ...echoed(query, ["external_id", "slippage_tolerance_in_bips", "wire_message"]),
  };
  const signature = signatureOf(await signingSecret(context.store), quote);
  return ok({ ...quote, signature } satisfies SignedAutorampQuote);
}

export async function answerExchangeRate(context: RouteContext): Promise<Answer> {
  const query = context.query as QueryParameters & GetExchangeRateQuery;
  const typeOf = (type: string) => (type === "fiat" ? "Fiat" : "Crypto");
  const priced = priceOrProblem(
    {
      source: {
        ...currency(query.source_currency_code, query.source_currency_chain),
        type: typeOf(query.source_currency_type),
      },
      destination: {
        ...currency(query.destination_currency_code, query.destination_currency_chain),
        type: typeOf(query.destination_currency_type),
      },
      amount_in: query.amount,
      is_third_party: false,
      ...(query._partner_fee_in_bips !== undefined && {
        partner_fee_in_bips: String(query._partner_fee_in_bips),
      }),
      ...(await pricingData(context.store)),
    },
    // The exchange rate's source amount is `amount`.
    (field) => (field === "amount_in" ? "amount" : field),
  );
  if ("status" in priced) return priced;
  return ok({
    effective_rate: priced.effective_rate,
    fee: priced.fee,
    from: cryptoCurrency(priced.source),
    to: cryptoCurrency(priced.destination),
    out_amount: priced.amount_out,
  } satisfies ExchangeRate);
}

/**
 * The 422 for an autoramp whose currencies the sandbox could not price a deposit of (see
 * `checkRoute`): a currency or chain it does not price, a fiat `type` on a crypto code, fiat to
 * fiat, a currency to itself, no source; undefined when every source can pay the destination.
 */
export function autorampRouteProblem(body: CreateAutorampRequest): Answer | undefined {
  const bips = negativeBips(
    "body",
    "additional_partner_fee_in_bips",
    body.additional_partner_fee_in_bips,
  );
  if (bips !== undefined) return bips;
  try {
    checkRoute(
      body.source_currencies.map((listed, index) =>
        listedCurrency(listed, `source_currencies.${index}`),
      ),
      listedCurrency(body.destination_currency, "destination_currency"),
    );
    return undefined;
  } catch (error) {
    if (!(error instanceof PricingError)) throw error;
    return problemAnswer(422, "invalid-request", "Invalid request", [
      { location: "body", field: error.field, rule: error.rule, message: error.message },
    ]);
  }
}

/**
 * A currency as an autoramp lists it (fiat `{ code, type }`, crypto `{ token, blockchain }`) as
 * pricing names it: the code it gives, fiat when it says so, its chain when it gives one.
 */
function listedCurrency(
  listed: { code?: unknown; token?: unknown; type?: unknown; blockchain?: unknown },
  field: string,
): PriceInput["source"] {
  const code = typeof listed.code === "string" ? listed.code : listed.token;
  if (typeof code !== "string" || code === "") {
    throw new PricingError(
      field,
      "required",
      "names no currency: give its `code` (fiat) or `token` (crypto)",
    );
  }
  return {
    code,
    ...(listed.type === "Fiat" && { type: "Fiat" as const }),
    ...(typeof listed.blockchain === "string" && {
      chain: listed.blockchain as NonNullable<PriceInput["source"]["chain"]>,
    }),
  };
}

/**
 * The 422 for a number of basis points below 0 (the API's decimals take a sign; a tolerance or a
 * fee cannot be negative, as an amount cannot); undefined for none or one of at least 0.
 */
function negativeBips(
  location: "query" | "body",
  field: string,
  value: string | undefined,
): Answer | undefined {
  if (value === undefined || !/^-/.test(value) || /^-[0.]+$/.test(value)) return undefined;
  return invalid([{ location, field, rule: "minimum", message: "must be at least 0" }]);
}

function currency(code: string, chain: PriceInput["source"]["chain"] | undefined) {
  return chain === undefined ? { code } : { code, chain };
}

/** The price, or the 422 naming the query parameter (as `fieldName` calls it) that keeps it from one. */
function priceOrProblem(input: PriceInput, fieldName: (field: string) => string) {
  try {
    return price(input);
  } catch (error) {
    if (!(error instanceof PricingError)) throw error;
    return invalid([
      {
        location: "query",
        field: fieldName(error.field),
        rule: error.rule,
        message: error.message,
      },
    ]);
  }
}

function invalid(errors: ProblemError[]): Answer {
  return problemAnswer(422, "invalid-request", "Invalid request", errors);
}

/** A side of the pair as the spec's CryptoCurrency writes it: the code as `token`, a fiat one without chain. */
function cryptoCurrency(side: PricedCurrency): CryptoCurrency {
  return side.chain === undefined
    ? { token: side.code }
    : { blockchain: side.chain, token: side.code };
}

/**
 * The spec's RecipientAccount has `type` (only `Fiat`) and `account_identifier.iban`: the account
 * as sent goes in `iban` (an IBAN, or a wallet address for a crypto destination, which gets no `type`).
 */
function recipientAccount(sent: string, destination: PricedCurrency): RecipientAccount {
  return destination.type === "Fiat"
    ? { type: "Fiat", account_identifier: { iban: sent } }
    : { account_identifier: { iban: sent } };
}

function echoed<K extends string>(query: QueryParameters, fields: K[]): Partial<Record<K, string>> {
  return Object.fromEntries(
    fields.flatMap((field) => (query[field] === undefined ? [] : [[field, query[field]]])),
  ) as Partial<Record<K, string>>;
}

/**
 * valid_until (now + expiry_in_hours, under `Return` at most the rate lock's end) and
 * rate_lock_valid_until (now + rate_lock_duration_minutes), or the sandbox's 422s: the sandbox
 * turns both into times, so each must be at least 1 and give a time a date-time can say.
 */
function quoteTimes(
  query: QueryParameters & GetAutorampQuoteQuery,
  now: number,
): { validUntil: number; rateLockValidUntil: number } | { errors: ProblemError[] } {
  const errors: ProblemError[] = [];
  const after = (field: string, count: number, unit: number) => {
    const at = now + count * unit;
    if (!(count >= 1)) {
      errors.push({
        location: "query",
        field,
        rule: "minimum",
        message: "must be at least 1 in the sandbox, which counts the quote's times from it",
      });
    } else if (!(at <= LAST_TIME_MS)) {
      errors.push({
        location: "query",
        field,
        rule: "maximum",
        message: "gives a time after the year 9999",
      });
    }
    return at;
  };
  const lockMinutes =
    query.rate_lock_duration_minutes === undefined
      ? DEFAULT_RATE_LOCK_MINUTES
      : Number(query.rate_lock_duration_minutes);
  const rateLockValidUntil = after("rate_lock_duration_minutes", lockMinutes, MINUTE_MS);
  const expiry = after("expiry_in_hours", Number(query.expiry_in_hours), HOUR_MS);
  if (errors.length > 0) return { errors };
  const validUntil =
    query.rate_expiry_policy === "Return" ? Math.min(expiry, rateLockValidUntil) : expiry;
  return { validUntil, rateLockValidUntil };
}
