// The sandbox README's pricing rules computed a second way, with exact fractions of BigInts and no
// decimal library, to hold the sandbox's pricing (decimal.js) to them. It reads the same data
// tables, which the caller passes in from the sandbox.
import type { Amount, FeeProfile } from "@org/payments-types";

/** The sandbox's data tables the rules read (CURRENCIES, NETWORK_FEES, BASE_CURRENCY). */
export interface PricingTables {
  currencies: Readonly<Record<string, { places: number }>>;
  networkFees: Readonly<Record<string, string>>;
  baseCurrency: string;
}

/** n / d, d > 0. */
interface Fraction {
  n: bigint;
  d: bigint;
}

const ten = (power: number) => 10n ** BigInt(power);

export function fraction(text: string): Fraction {
  const [whole = "0", part = ""] = text.split(".");
  return { n: BigInt(whole + part), d: ten(part.length) };
}

const add = (a: Fraction, b: Fraction): Fraction => ({ n: a.n * b.d + b.n * a.d, d: a.d * b.d });
const sub = (a: Fraction, b: Fraction): Fraction => add(a, { n: -b.n, d: b.d });
const mul = (a: Fraction, b: Fraction): Fraction => ({ n: a.n * b.n, d: a.d * b.d });
const div = (a: Fraction, b: Fraction): Fraction => ({ n: a.n * b.d, d: a.d * b.n });
const cmp = (a: Fraction, b: Fraction) => {
  const difference = a.n * b.d - b.n * a.d;
  return difference > 0n ? 1 : difference < 0n ? -1 : 0;
};
const zero: Fraction = { n: 0n, d: 1n };

function floorDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return n % d !== 0n && n < 0n !== d < 0n ? q - 1n : q;
}

/** Rounded to `places` decimals: up (away from zero, for the positive fees) or down. */
function round(x: Fraction, places: number, direction: "up" | "down"): Fraction {
  const scaled = x.n * ten(places);
  const down = floorDiv(scaled, x.d);
  const units = direction === "down" || down * x.d === scaled ? down : down + 1n;
  return { n: units, d: ten(places) };
}

/** `digits` significant digits, ties away from zero (x > 0). */
function significant(x: Fraction, digits: number): Fraction {
  let exponent = 0; // 10^exponent <= x < 10^(exponent + 1)
  while (cmp(x, { n: ten(exponent + 1), d: 1n }) >= 0) exponent++;
  while (exponent <= 0 && cmp(x, { n: 1n, d: ten(-exponent) }) < 0) exponent--;
  const shift = digits - 1 - exponent;
  const scaled = shift >= 0 ? mul(x, { n: ten(shift), d: 1n }) : div(x, { n: ten(-shift), d: 1n });
  const twice = floorDiv(2n * scaled.n + scaled.d, 2n * scaled.d); // floor(v + 1/2)
  return shift >= 0 ? { n: twice, d: ten(shift) } : { n: twice * ten(-shift), d: 1n };
}

/** Exactly `places` decimals. */
function fixed(x: Fraction, places: number): string {
  const units = (x.n * ten(places)) / x.d;
  const digits = units.toString().padStart(places + 1, "0");
  return places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

/** The shortest decimal (the value has a finite one). */
function plain(x: Fraction): string {
  for (let places = 0; ; places++) {
    if ((x.n * ten(places)) % x.d === 0n) return fixed(x, places);
  }
}

/** Rule 1: value(from) ÷ value(to), 12 significant digits, half up, as the shortest decimal. */
export function referenceRate(rates: Record<string, string>, from: string, to: string): string {
  return plain(significant(div(fraction(rates[from] ?? "0"), fraction(rates[to] ?? "0")), 12));
}

export interface ReferenceInput {
  source: string;
  sourceType: "Fiat" | "Crypto";
  destination: string;
  destinationType: "Fiat" | "Crypto";
  /** The destination's chain, for a crypto destination. */
  chain?: string;
  amountIn: string;
  profile: FeeProfile;
  partnerFeeInBips?: string;
  rates: Record<string, string>;
  /** The fiat side's rail and whether it is paid in (source) or out (destination). */
  fiatLeg?: { rail: string; transfer: "PayIn" | "PayOut" };
}

export interface ReferencePrice {
  rate: string;
  amount_out: string;
  effective_rate: string;
  fees: Record<string, string>;
  partner_fees: { fee: string; label: string; settlement: string }[];
  network_fees: string[];
  fee_settlement: string;
  service_fee_settlement: string;
}

/** The README's rules, step for step; undefined when nothing is left to pay out. */
export function referencePrice(
  input: ReferenceInput,
  tables: PricingTables,
): ReferencePrice | undefined {
  const placesOf = (code: string) =>
    Object.hasOwn(tables.currencies, code) ? (tables.currencies[code]?.places ?? 0) : 0;
  const places = placesOf(input.source);
  const destinationPlaces = placesOf(input.destination);
  const value = (code: string) => fraction(input.rates[code] ?? "0");
  const rateOf = (from: string, to: string) => significant(div(value(from), value(to)), 12);
  const rate = rateOf(input.source, input.destination);
  const convert = (amount: Amount | undefined) => {
    const code = amount?.currency?.code ?? "";
    const figure = fraction(amount?.amount ?? "0");
    return round(
      code === input.source ? figure : mul(figure, rateOf(code, input.source)),
      places,
      "up",
    );
  };
  const amountIn = fraction(input.amountIn);
  const bips = (count: string) => mul(amountIn, { n: BigInt(count), d: 10_000n });
  const profile = input.profile;
  const settlementOf = (value: string | undefined) => value ?? "deductedImmediately";

  const percent = round(bips(String(profile.service_fee?.bips ?? 0)), places, "up");
  const minimum = profile.min_fee === undefined ? zero : convert(profile.min_fee);
  const service = {
    amount: cmp(percent, minimum) >= 0 ? percent : minimum,
    settlement: settlementOf(profile.service_fee_settlement),
  };
  const banking = (profile.banking_fee_configs ?? [])
    .filter(
      (config) =>
        input.fiatLeg !== undefined &&
        config.rail === input.fiatLeg.rail &&
        config.fiat_transfer_type === input.fiatLeg.transfer,
    )
    .map((config) => ({
      amount: convert(config.fee_amount),
      settlement: settlementOf(config.settlement),
    }));
  const network =
    profile.network_fee_enabled === true &&
    input.destinationType === "Crypto" &&
    input.chain !== undefined
      ? [
          {
            amount: convert({
              amount: tables.networkFees[input.chain],
              currency: { code: tables.baseCurrency, type: "Fiat" },
            }),
            settlement: "deductedImmediately",
          },
        ]
      : [];
  const partner = (profile.partner_fee_configs ?? []).map((config) => ({
    amount: convert(config.fee_type?.fixed_fee),
    label: config.label ?? "",
    settlement: settlementOf(config.settlement),
  }));
  if (input.partnerFeeInBips !== undefined) {
    partner.push({
      amount: round(bips(input.partnerFeeInBips), places, "up"),
      label: "Partner fee in bips",
      settlement: "deductedImmediately",
    });
  }
  const total = (list: { amount: Fraction }[]) =>
    list.reduce((sum, item) => add(sum, item.amount), zero);
  const all = [service, ...banking, ...network, ...partner];
  const deducted = total(all.filter((item) => item.settlement === "deductedImmediately"));
  const transaction = total([service, ...banking, ...network]);
  const totalFee = add(transaction, total(partner));
  const amountOut = round(mul(sub(amountIn, deducted), rate), destinationPlaces, "down");
  if (cmp(amountOut, zero) <= 0) return undefined;
  return {
    rate: plain(rate),
    amount_out: fixed(amountOut, destinationPlaces),
    effective_rate: plain(significant(div(amountOut, amountIn), 12)),
    fees: {
      service_fee: fixed(service.amount, places),
      banking_fee: fixed(total(banking), places),
      network_fee: fixed(total(network), places),
      partner_fee: fixed(total(partner), places),
      transaction_fee: fixed(transaction, places),
      total_fee: fixed(totalFee, places),
      deducted_fee: fixed(deducted, places),
    },
    partner_fees: partner.map((item) => ({
      fee: fixed(item.amount, places),
      label: item.label,
      settlement: item.settlement,
    })),
    network_fees: network.map((item) => fixed(item.amount, places)),
    fee_settlement: cmp(deducted, totalFee) < 0 ? "settledLater" : "deductedImmediately",
    service_fee_settlement: service.settlement,
  };
}
