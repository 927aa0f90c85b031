// The sandbox's one pricing function: the rate, every field of the spec's `Fee` and the amounts
// on both sides of a payment, in exact decimals (decimal.js, never floats). GET /autoramps/quote,
// GET /exchange-rate and the simulated deposits' transactions all price through `price`. It is
// pure: the rate table and the fee profile come in, nothing is read or written. The rules (the
// README's "Pricing" section, which a test holds to this code):
//
//   rate            = value(source) ÷ value(destination), 12 significant digits, half up
//   convert(x in F) = x rounded up to the source's places when F is the source currency,
//                     else x × rate(F → source) rounded up to the source's places
//   service_fee     = max(amount_in × bips ÷ 10000 rounded up, convert(min_fee))
//   banking_fee     = Σ convert(fee_amount) of the configs for the fiat side's rail and direction
//   network_fee     = convert(NETWORK_FEES[destination chain]) for a crypto destination, when enabled
//   partner_fee     = Σ convert(fixed_fee) of partner_fee_configs (+ amount_in × _partner_fee_in_bips)
//   transaction_fee = service_fee + banking_fee + network_fee;  total_fee = transaction_fee + partner_fee
//   deducted_fee    = Σ of the fees settled deductedImmediately
//   amount_out      = (amount_in − deducted_fee) × rate, rounded down to the destination's places
//
// Every fee is an amount of the source currency.
import type {
  Amount,
  Blockchain,
  DepositAccountType,
  Fee,
  FeeProfile,
  FeeSettlement,
  NetworkFeeWithSettlement,
  PartnerFee,
} from "@org/payments-types";
import {
  BASE_CURRENCY,
  CRYPTO_DEPOSIT_ACCOUNT_TYPE,
  CURRENCY_CODES,
  type CurrencyFacts,
  type CurrencyType,
  currencyFacts,
  NETWORK_FEES,
  RAILS,
} from "./currencies.js";
import { Decimal } from "./decimal.js";
import type { RateTable } from "./rates.js";

/** One side of the pair, as a request names it. */
export interface PriceCurrency {
  /** The currency's code or token symbol, as sent (case matters): `EUR`, `USDC`. */
  code: string;
  /** Fiat or crypto; absent: the type the sandbox knows the code as (a quote's query has none). */
  type?: CurrencyType;
  /** Only for a crypto currency; absent: the token's first chain (currencies.ts). */
  chain?: Blockchain;
}

/** What a price depends on. */
export interface PriceInput {
  source: PriceCurrency;
  destination: PriceCurrency;
  /** The amount paid in, in the source currency; give it or `amount_out`, not both. */
  amount_in?: string;
  /** The amount wanted out, in the destination currency: priced as the smallest amount_in giving at least it. */
  amount_out?: string;
  /** The customer's fee profile; undefined prices without fees. */
  profile?: FeeProfile;
  /** The rail the source is paid in through; default: the source currency's own. */
  deposit_account_type?: DepositAccountType;
  /** Third-party payments are priced like the others in the sandbox; carried for callers' clarity. */
  is_third_party: boolean;
  /** An extra partner fee in bips of amount_in (GET /exchange-rate's `_partner_fee_in_bips`). */
  partner_fee_in_bips?: string;
  /** Each currency's value in USD (rates.ts). */
  rates: RateTable;
}

/** A side of the pair as priced: the code as sent, its type, and for crypto the chain priced on. */
export interface PricedCurrency {
  code: string;
  type: CurrencyType;
  chain?: Blockchain;
}

/** Every fee field of the spec's `Fee`, each filled. */
type FullFee = Required<Fee>;

export interface Priced {
  source: PricedCurrency;
  destination: PricedCurrency;
  /** value(source) ÷ value(destination), 12 significant digits. */
  rate: string;
  amount_in: Amount;
  amount_out: Amount;
  /** amount_out ÷ amount_in, 12 significant digits: the rate after fees (GET /exchange-rate). */
  effective_rate: string;
  fee: FullFee;
  /** settledLater when some fee is not deducted (deducted_fee < total_fee), else deductedImmediately. */
  fee_settlement: FeeSettlement;
  deposit_account_type: DepositAccountType;
}

/** A request the sandbox cannot price; `field` is the query parameter's name. */
export class PricingError extends Error {
  override name = "PricingError";
  readonly field: string;
  readonly rule: string;

  constructor(field: string, rule: string, message: string) {
    super(message);
    this.field = field;
    this.rule = rule;
  }
}

/**
 * Sums and products are exact: far more digits than any figure here has (amounts are below
 * MAX_AMOUNT with at most 9 places, rates have 12 digits). Only `toDecimalPlaces` rounds.
 */
const Exact = Decimal.clone({ precision: 1000, toExpNeg: -1000, toExpPos: 1000 });
/** Amounts are below this (15 integer digits). */
const MAX_AMOUNT = new Exact("1e15");
/** Significant digits of a rate. */
const RATE_DIGITS = 12;
const RateDecimal = Decimal.clone({ precision: RATE_DIGITS, rounding: Decimal.ROUND_HALF_UP });
const DEDUCTED: FeeSettlement = "deductedImmediately";
/** The `fee_type` of the network fee in `network_fees_with_settlement`. */
const NETWORK_FEE_TYPE = "Gas";
/** The label of the partner fee `_partner_fee_in_bips` adds. */
const BIPS_PARTNER_FEE_LABEL = "Partner fee in bips";
const BIPS = new Exact("0.0001");

interface Side extends PricedCurrency {
  facts: CurrencyFacts;
  value: Decimal;
}

/** A fee in the source currency, and whether it is deducted from amount_in. */
interface Charge {
  amount: Decimal;
  settlement: FeeSettlement;
}

/**
 * Prices one payment by the README's rules. Throws a PricingError naming the request's field when
 * it cannot: an unsupported currency, chain or pair, a missing or unusable amount, an amount the
 * deducted fees eat, a fee profile it cannot read (named as `customer_id`).
 */
export function price(input: PriceInput): Priced {
  const source = side("source", input.source, input.rates);
  const destination = side("destination", input.destination, input.rates);
  checkPair(source, destination);
  if (input.amount_in !== undefined && input.amount_out !== undefined) {
    throw new PricingError("amount_out", "exclusive", "give amount_in or amount_out, not both");
  }
  const context = pricingContext(input, source, destination);
  if (input.amount_in !== undefined) {
    return context.forward(amountOf("amount_in", input.amount_in, source));
  }
  if (input.amount_out !== undefined) {
    return context.inverse(amountOf("amount_out", input.amount_out, destination));
  }
  throw new PricingError("amount_in", "required", "give amount_in or amount_out");
}

/**
 * Whether the sandbox can price payments from each of `sources` to `destination`, as an autoramp
 * names them, before any amount: throws the PricingError `price` would throw for one of them (an
 * unsupported currency, chain or pair), naming it as `source_currencies.N` or
 * `destination_currency`, and one for no source at all.
 */
export function checkRoute(sources: readonly PriceCurrency[], destination: PriceCurrency): void {
  const named = <T>(field: string, check: () => T): T => {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof PricingError)) throw error;
      throw new PricingError(field, error.rule, error.message);
    }
  };
  const to = named("destination_currency", () => side("destination", destination, {}));
  if (sources.length === 0) {
    throw new PricingError("source_currencies", "minItems", "must name at least one currency");
  }
  sources.forEach((source, index) => {
    const field = `source_currencies.${index}`;
    named(field, () => checkPair(side("source", source, {}), to));
  });
}

function side(name: "source" | "destination", currency: PriceCurrency, rates: RateTable): Side {
  const facts = currencyFacts(currency.code);
  if (facts === undefined) {
    throw new PricingError(
      `${name}_currency_code`,
      "supported",
      `${currency.code} is not a currency the sandbox prices; supported: ${CURRENCY_CODES.join(", ")}`,
    );
  }
  if (currency.type !== undefined && currency.type !== facts.type) {
    throw new PricingError(
      `${name}_currency_type`,
      "supported",
      `${currency.code} is a ${facts.type.toLowerCase()} currency`,
    );
  }
  const value = new Exact(rates[currency.code] ?? "0");
  if (facts.type === "Fiat") {
    if (currency.chain !== undefined) {
      throw new PricingError(
        `${name}_currency_chain`,
        "supported",
        `${currency.code} is fiat: it has no chain`,
      );
    }
    return { code: currency.code, type: "Fiat", facts, value };
  }
  const chain = currency.chain ?? facts.chains[0];
  if (!facts.chains.includes(chain)) {
    throw new PricingError(
      `${name}_currency_chain`,
      "supported",
      `the sandbox prices ${currency.code} on ${facts.chains.join(", ")}`,
    );
  }
  return { code: currency.code, type: "Crypto", chain, facts, value };
}

function checkPair(source: Side, destination: Side): void {
  const supported =
    "the sandbox prices any pair of its currencies except fiat to fiat and a currency to itself on the same chain";
  if (source.type === "Fiat" && destination.type === "Fiat") {
    throw new PricingError(
      "destination_currency_code",
      "pair",
      `${source.code} to ${destination.code} is fiat to fiat; ${supported}`,
    );
  }
  if (source.code === destination.code && source.chain === destination.chain) {
    throw new PricingError(
      "destination_currency_code",
      "pair",
      `${source.code} to itself is no payment; ${supported}`,
    );
  }
}

/** A request's amount: a positive decimal with at most the currency's places. */
function amountOf(field: string, text: string, currency: Side): Decimal {
  // The API's Decimal takes a sign: a negative amount (`-0` too) is one, only not above 0.
  if (/^-[0-9]+(\.[0-9]+)?$/.test(text)) {
    throw new PricingError(field, "minimum", "must be more than 0");
  }
  if (!/^[0-9]+(\.[0-9]+)?$/.test(text)) {
    throw new PricingError(field, "pattern", `must be a decimal string such as "250.00"`);
  }
  const amount = new Exact(text);
  if (amount.isZero()) throw new PricingError(field, "minimum", "must be more than 0");
  if (amount.gte(MAX_AMOUNT)) {
    throw new PricingError(field, "maximum", `must be less than ${MAX_AMOUNT.toFixed()}`);
  }
  if (amount.decimalPlaces() > currency.facts.places) {
    throw new PricingError(
      field,
      "places",
      `${currency.code} amounts have at most ${currency.facts.places} decimal places`,
    );
  }
  return amount;
}

/** The rate of a pair: value(from) ÷ value(to), to RATE_DIGITS significant digits, half up. */
function rateOf(from: Decimal, to: Decimal): Decimal {
  return new Exact(new RateDecimal(from).dividedBy(to));
}

/** What pricing a pair for one request needs, worked out once for every amount it tries. */
interface Pricing {
  input: PriceInput;
  source: Side;
  destination: Side;
  rate: Decimal;
  profile: FeeProfile;
  fixed: FixedCharges;
  serviceBips: Decimal;
  partnerBips: Decimal | undefined;
}

function pricingContext(input: PriceInput, source: Side, destination: Side) {
  const profile = input.profile ?? {};
  const convert = converter(input, source, profile);
  const pricing: Pricing = {
    input,
    source,
    destination,
    rate: rateOf(source.value, destination.value),
    profile,
    fixed: fixedCharges(profile, source, destination, input.deposit_account_type, convert),
    serviceBips: bipsOf(profile),
    partnerBips:
      input.partner_fee_in_bips === undefined ? undefined : new Exact(input.partner_fee_in_bips),
  };
  return {
    forward: (amountIn: Decimal) => forward(pricing, amountIn),
    inverse: (wanted: Decimal) => inverse(pricing, wanted),
  };
}

/** An amount rounded up to the source's places: every fee is. */
function up(source: Side, amount: Decimal): Decimal {
  return amount.toDecimalPlaces(source.facts.places, Decimal.ROUND_UP);
}

function sourceAmount(source: Side, amount: Decimal): Amount {
  return {
    amount: amount.toFixed(source.facts.places),
    currency: { code: source.code, type: source.type },
  };
}

/** `convert` of the rules: a fee profile's amount, in any currency, as an amount of the source. */
function converter(input: PriceInput, source: Side, profile: FeeProfile) {
  return (amount: Amount | undefined, field: string): Decimal => {
    const code = amount?.currency?.code;
    const figure = amount?.amount;
    const facts = code === undefined ? undefined : currencyFacts(code);
    if (code === undefined || facts === undefined || !isDecimal(figure)) {
      throw profileError(
        profile,
        field,
        `needs an amount (a decimal string) of a currency the sandbox prices (${CURRENCY_CODES.join(", ")})`,
      );
    }
    const value = new Exact(figure);
    if (code === source.code) return up(source, value);
    return up(source, value.times(rateOf(new Exact(input.rates[code] ?? "0"), source.value)));
  };
}

/** The fees of amount_in, what of them is deducted, and the amount out (before any check). */
function figures(pricing: Pricing, amountIn: Decimal) {
  const { source, destination, profile, fixed, serviceBips, partnerBips } = pricing;
  const service: Charge = {
    amount: Exact.max(up(source, amountIn.times(serviceBips).times(BIPS)), fixed.minimum),
    settlement: profile.service_fee_settlement ?? DEDUCTED,
  };
  const partner = [...fixed.partner];
  if (partnerBips !== undefined) {
    partner.push({
      label: BIPS_PARTNER_FEE_LABEL,
      amount: up(source, amountIn.times(partnerBips).times(BIPS)),
      settlement: DEDUCTED,
    });
  }
  const charges = [service, ...fixed.banking, ...fixed.network, ...partner];
  const deducted = sum(charges.filter((charge) => charge.settlement === DEDUCTED));
  const amountOut = amountIn
    .minus(deducted)
    .times(pricing.rate)
    .toDecimalPlaces(destination.facts.places, Decimal.ROUND_DOWN);
  return { service, partner, deducted, amountOut };
}

type Figures = ReturnType<typeof figures>;

/** The price of paying in `amountIn`. */
function forward(pricing: Pricing, amountIn: Decimal): Priced {
  const { input, source, destination, rate } = pricing;
  const figured = figures(pricing, amountIn);
  const { deducted, amountOut } = figured;
  if (amountOut.lte(0)) {
    const places = source.facts.places;
    throw new PricingError(
      input.amount_in === undefined ? "amount_out" : "amount_in",
      "minimum",
      `${amountIn.toFixed(places)} ${source.code} leaves nothing to pay out once the fees deducted (${deducted.toFixed(places)} ${source.code}) are taken`,
    );
  }
  const fee = feeOf(source, pricing.fixed, figured);
  return {
    source: pricedCurrency(source),
    destination: pricedCurrency(destination),
    rate: rate.toFixed(),
    amount_in: sourceAmount(source, amountIn),
    amount_out: {
      amount: amountOut.toFixed(destination.facts.places),
      currency: { code: destination.code, type: destination.type },
    },
    effective_rate: new RateDecimal(amountOut).dividedBy(amountIn).toFixed(),
    fee: fee.fee,
    fee_settlement: deducted.lt(fee.total) ? "settledLater" : DEDUCTED,
    deposit_account_type: pricing.fixed.depositAccountType,
  };
}

/** Every field of the spec's `Fee`, as amounts of the source, and the fees' total. */
function feeOf(
  source: Side,
  fixed: FixedCharges,
  { service, partner, deducted }: Figures,
): { fee: FullFee; total: Decimal } {
  const amount = (value: Decimal) => sourceAmount(source, value);
  const transaction = sum([service, ...fixed.banking, ...fixed.network]);
  const partnerTotal = sum(partner);
  const total = transaction.plus(partnerTotal);
  const networkFees = fixed.network.map((charge) => amount(charge.amount));
  const fee: FullFee = {
    banking_fee: amount(sum(fixed.banking)),
    service_fee: amount(service.amount),
    network_fee: amount(sum(fixed.network)),
    partner_fee: amount(partnerTotal),
    total_fee: amount(total),
    transaction_fee: amount(transaction),
    deducted_fee: amount(deducted),
    network_fees: networkFees,
    network_fees_with_settlement: networkFees.map(
      (fee_amount): NetworkFeeWithSettlement => ({
        fee_amount,
        fee_type: NETWORK_FEE_TYPE,
        settlement: DEDUCTED,
      }),
    ),
    partner_fees: partner.map(
      (charge): PartnerFee => ({
        fee: amount(charge.amount),
        label: charge.label,
        settlement: charge.settlement,
      }),
    ),
    service_fee_settlement: service.settlement,
  };
  return { fee, total };
}

/** The smallest amount_in (in steps of the source's last place) whose amount_out is at least `wanted`. */
function inverse(pricing: Pricing, wanted: Decimal): Priced {
  const { source, destination, rate } = pricing;
  const step = new Exact(`1e-${source.facts.places}`);
  const out = (steps: Decimal) => figures(pricing, steps.times(step)).amountOut;
  const most = MAX_AMOUNT.dividedToIntegerBy(step).minus(1);
  // In steps of amount_in: out(low) < wanted <= out(high); out never falls as amount_in grows.
  let low = new Exact(0);
  let high = Exact.min(
    most,
    Exact.max(1, new RateDecimal(wanted).dividedBy(rate).dividedToIntegerBy(step)),
  );
  while (out(high).lt(wanted)) {
    if (high.gte(most)) {
      throw new PricingError(
        "amount_out",
        "maximum",
        `no amount_in below ${MAX_AMOUNT.toFixed()} ${source.code} pays out ${wanted.toFixed()} ${destination.code}`,
      );
    }
    low = high;
    high = Exact.min(high.times(2), most);
  }
  while (high.minus(low).gt(1)) {
    const middle = low.plus(high).dividedToIntegerBy(2);
    if (out(middle).lt(wanted)) low = middle;
    else high = middle;
  }
  return forward(pricing, high.times(step));
}

interface FixedCharges {
  /** The service fee's minimum, converted. */
  minimum: Decimal;
  banking: Charge[];
  network: Charge[];
  partner: (Charge & { label: string })[];
  depositAccountType: DepositAccountType;
}

/** The fees that do not depend on the amount. */
function fixedCharges(
  profile: FeeProfile,
  source: Side,
  destination: Side,
  depositAccountType: DepositAccountType | undefined,
  convert: Convert,
): FixedCharges {
  const deposit =
    depositAccountType ??
    (source.facts.type === "Fiat"
      ? source.facts.deposit_account_type
      : CRYPTO_DEPOSIT_ACCOUNT_TYPE);
  // Paying fiat in goes through the deposit's rail; paying fiat out, through the destination's.
  const fiatLeg =
    source.type === "Fiat"
      ? { rail: RAILS[deposit], transfer: "PayIn" }
      : destination.facts.type === "Fiat"
        ? { rail: destination.facts.rail, transfer: "PayOut" }
        : undefined;
  const minimum =
    profile.min_fee === undefined ? new Exact(0) : convert(profile.min_fee, "min_fee");
  return {
    minimum,
    banking: bankingCharges(profile, fiatLeg, convert),
    network: networkCharges(profile, destination, convert),
    partner: partnerCharges(profile, convert),
    depositAccountType: deposit,
  };
}

type Convert = (amount: Amount | undefined, field: string) => Decimal;

/** The profile's banking fees on the rail and direction the fiat leg takes (none without one). */
function bankingCharges(
  profile: FeeProfile,
  fiatLeg: { rail: string | undefined; transfer: string } | undefined,
  convert: Convert,
): FixedCharges["banking"] {
  return (profile.banking_fee_configs ?? []).flatMap((config, index) =>
    fiatLeg !== undefined &&
    config.rail === fiatLeg.rail &&
    config.fiat_transfer_type === fiatLeg.transfer
      ? [
          {
            amount: convert(config.fee_amount, `banking_fee_configs[${index}].fee_amount`),
            settlement: config.settlement ?? DEDUCTED,
          },
        ]
      : [],
  );
}

/** The destination chain's network fee, when the profile has network fees on. */
function networkCharges(
  profile: FeeProfile,
  destination: Side,
  convert: Convert,
): FixedCharges["network"] {
  if (profile.network_fee_enabled !== true || destination.chain === undefined) return [];
  const fee: Amount = {
    amount: NETWORK_FEES[destination.chain],
    currency: { code: BASE_CURRENCY, type: "Fiat" },
  };
  return [{ amount: convert(fee, "network_fee_enabled"), settlement: DEDUCTED }];
}

/** The profile's partner fees: fixed amounts only, the one kind the sandbox prices. */
function partnerCharges(profile: FeeProfile, convert: Convert): FixedCharges["partner"] {
  return (profile.partner_fee_configs ?? []).map((config, index) => {
    if (config.fee_type?.type !== "Fixed") {
      throw profileError(
        profile,
        `partner_fee_configs[${index}].fee_type.type`,
        "is not Fixed, the one kind of partner fee the sandbox prices",
      );
    }
    return {
      label: config.label ?? "",
      amount: convert(
        config.fee_type.fixed_fee,
        `partner_fee_configs[${index}].fee_type.fixed_fee`,
      ),
      settlement: config.settlement ?? DEDUCTED,
    };
  });
}

function bipsOf(profile: FeeProfile): Decimal {
  const bips = profile.service_fee?.bips ?? 0;
  if (!Number.isSafeInteger(bips) || bips < 0) {
    throw profileError(profile, "service_fee.bips", "must be a whole number of at least 0");
  }
  return new Exact(bips);
}

/** A fee profile that cannot price: the customer's, so the error names the customer_id. */
function profileError(profile: FeeProfile, field: string, message: string): PricingError {
  return new PricingError(
    "customer_id",
    "fee-profile",
    `the customer's fee profile ${profile.id ?? ""}: ${field} ${message}`,
  );
}

function isDecimal(value: unknown): value is string {
  return typeof value === "string" && value.length <= 64 && /^[0-9]+(\.[0-9]+)?$/.test(value);
}

function sum(charges: { amount: Decimal }[]): Decimal {
  return charges.reduce((total, charge) => total.plus(charge.amount), new Exact(0));
}

function pricedCurrency(side: Side): PricedCurrency {
  return side.chain === undefined
    ? { code: side.code, type: side.type }
    : { code: side.code, type: side.type, chain: side.chain };
}
