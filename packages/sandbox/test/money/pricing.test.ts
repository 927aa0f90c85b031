// The sandbox's pricing function against the README's rules, recomputed with exact BigInt fractions
// (test/support/reference-pricing.ts) over random pairs, amounts, rate tables and fee profiles.

import { fraction, type PricingTables, referencePrice } from "@org/payments-testing";
import type { Amount, FeeProfile } from "@org/payments-types";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  BASE_CURRENCY,
  CURRENCIES,
  type CurrencyFacts,
  NETWORK_FEES,
} from "../../src/money/currencies.js";
import {
  checkRoute,
  type PriceCurrency,
  type PriceInput,
  PricingError,
  price,
} from "../../src/money/pricing.js";
import { DEFAULT_RATES, type RateTable } from "../../src/money/rates.js";

/** The tables the reference pricing reads: the sandbox's own. */
const PRICING_TABLES: PricingTables = {
  currencies: CURRENCIES,
  networkFees: NETWORK_FEES,
  baseCurrency: BASE_CURRENCY,
};

const CODES = Object.keys(CURRENCIES);
const factsOf = (code: string) => CURRENCIES[code] as CurrencyFacts;
const SETTLEMENTS = ["deductedImmediately", "settledLater"] as const;

/** `units` of the last place of a currency with `places` decimals, as a decimal string. */
function decimal(units: bigint, places: number): string {
  if (places === 0) return units.toString();
  const digits = units.toString().padStart(places + 1, "0");
  return `${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

const side: fc.Arbitrary<PriceCurrency> = fc.constantFrom(...CODES).chain((code) => {
  const facts = factsOf(code);
  return facts.type === "Fiat"
    ? fc.constant({ code })
    : fc.record(
        { code: fc.constant(code), chain: fc.constantFrom(...facts.chains) },
        { requiredKeys: ["code"] },
      );
});

const chainOf = (currency: PriceCurrency) => {
  const facts = factsOf(currency.code);
  return facts.type === "Crypto" ? (currency.chain ?? facts.chains[0]) : undefined;
};

const pair = fc
  .tuple(side, side)
  .filter(
    ([source, destination]) =>
      !(factsOf(source.code).type === "Fiat" && factsOf(destination.code).type === "Fiat") &&
      !(source.code === destination.code && chainOf(source) === chainOf(destination)),
  );

/** A positive amount with up to `places` decimals: mostly everyday sizes, sometimes huge. */
const amountUnits = (places: number) =>
  fc.oneof(
    fc.bigInt({ min: 1n, max: 10n ** BigInt(places + 5) }),
    fc.bigInt({ min: 1n, max: 10n ** BigInt(places + 14) }),
  );

const rates: fc.Arbitrary<RateTable> = fc.record(
  Object.fromEntries(
    CODES.map((code) => [
      code,
      code === "USD"
        ? fc.constant("1")
        : fc
            .tuple(fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.integer({ min: 0, max: 8 }))
            .map(([units, places]) => decimal(units, places)),
    ]),
  ),
);

const feeAmount: fc.Arbitrary<Amount> = fc
  .tuple(
    fc.constantFrom(...CODES),
    fc.bigInt({ min: 0n, max: 100_000n }),
    fc.integer({ min: 0, max: 4 }),
  )
  .map(([code, units, places]) => ({
    amount: decimal(units, places),
    currency: { code, type: factsOf(code).type },
  }));

const settlement = fc.constantFrom(...SETTLEMENTS);

const profile: fc.Arbitrary<FeeProfile> = fc.record(
  {
    id: fc.uuid(),
    service_fee: fc.record({
      type: fc.constant("Bips" as const),
      bips: fc.integer({ min: 0, max: 3_000 }),
    }),
    service_fee_settlement: settlement,
    min_fee: feeAmount,
    network_fee_enabled: fc.boolean(),
    banking_fee_configs: fc.array(
      fc.record({
        billing_type: fc.constant("One Time"),
        fee_amount: feeAmount,
        fiat_transfer_type: fc.constantFrom("PayIn", "PayOut"),
        rail: fc.constantFrom("Sepa", "Fps", "Ach", "Pix", "Spei"),
        settlement,
      }),
      { maxLength: 3 },
    ),
    partner_fee_configs: fc.array(
      fc.record({
        billing_type: fc.constant("One Time"),
        fee_type: fc.record({ type: fc.constant("Fixed"), fixed_fee: feeAmount }),
        label: fc.string({ maxLength: 12 }),
        settlement,
      }),
      { maxLength: 3 },
    ),
  },
  { requiredKeys: ["id"] },
);

const partnerBips = fc.option(fc.integer({ min: 0, max: 500 }).map(String), { nil: undefined });

/** The reference's input for a request priced from amount_in. */
function reference(input: PriceInput & { amount_in: string }) {
  const source = factsOf(input.source.code);
  const destination = factsOf(input.destination.code);
  return referencePrice(
    {
      source: input.source.code,
      sourceType: source.type,
      destination: input.destination.code,
      destinationType: destination.type,
      chain: chainOf(input.destination),
      amountIn: input.amount_in,
      profile: input.profile ?? {},
      partnerFeeInBips: input.partner_fee_in_bips,
      rates: input.rates,
      fiatLeg:
        source.type === "Fiat"
          ? { rail: source.rail, transfer: "PayIn" }
          : destination.type === "Fiat"
            ? { rail: destination.rail, transfer: "PayOut" }
            : undefined,
    },
    PRICING_TABLES,
  );
}

const forwardCase = fc
  .tuple(pair, profile, rates, partnerBips)
  .chain(([[source, destination], fees, table, bips]) =>
    amountUnits(factsOf(source.code).places).map((units): PriceInput & { amount_in: string } => ({
      source,
      destination,
      amount_in: decimal(units, factsOf(source.code).places),
      profile: fees,
      is_third_party: false,
      rates: table,
      partner_fee_in_bips: bips,
    })),
  );

describe("price, from amount_in", () => {
  it("gives every figure the README's rules give, to the last digit", () => {
    fc.assert(
      fc.property(forwardCase, (input) => {
        const expected = reference(input);
        if (expected === undefined) {
          expect(() => price(input)).toThrow(PricingError);
          return;
        }
        const priced = price(input);
        const fee = priced.fee;
        expect({
          rate: priced.rate,
          amount_out: priced.amount_out.amount,
          effective_rate: priced.effective_rate,
          fees: {
            service_fee: fee.service_fee.amount,
            banking_fee: fee.banking_fee.amount,
            network_fee: fee.network_fee.amount,
            partner_fee: fee.partner_fee.amount,
            transaction_fee: fee.transaction_fee.amount,
            total_fee: fee.total_fee.amount,
            deducted_fee: fee.deducted_fee.amount,
          },
          partner_fees: fee.partner_fees.map((item) => ({
            fee: item.fee?.amount,
            label: item.label,
            settlement: item.settlement,
          })),
          network_fees: fee.network_fees.map((item) => item.amount),
          fee_settlement: priced.fee_settlement,
          service_fee_settlement: fee.service_fee_settlement,
        }).toEqual(expected);
        expect(priced.amount_in.amount).toBe(input.amount_in);
        expect(fee.network_fees_with_settlement.map((item) => item.fee_amount)).toEqual(
          fee.network_fees,
        );
      }),
      { numRuns: 400 },
    );
  });

  it("holds amount_out = (amount_in − deducted_fee) × rate, rounded down, on the answer's own strings", () => {
    fc.assert(
      fc.property(forwardCase, (input) => {
        let priced: ReturnType<typeof price>;
        try {
          priced = price(input);
        } catch (error) {
          expect(error).toBeInstanceOf(PricingError);
          return;
        }
        const places = factsOf(input.destination.code).places;
        const amountIn = fraction(priced.amount_in.amount ?? "");
        const deducted = fraction(priced.fee.deducted_fee.amount ?? "");
        const rate = fraction(priced.rate);
        const out = fraction(priced.amount_out.amount ?? "");
        // (in − deducted) × rate, over the common denominator, against out and out + one last place.
        const exact = (amountIn.n * deducted.d - deducted.n * amountIn.d) * rate.n;
        const exactD = amountIn.d * deducted.d * rate.d;
        expect(out.n * exactD <= exact * out.d).toBe(true);
        expect(exact * out.d < (out.n + 1n) * exactD).toBe(true);
        expect(priced.amount_out.amount?.split(".")[1]?.length ?? 0).toBe(places);
        expect(priced.amount_out.currency).toEqual({
          code: input.destination.code,
          type: factsOf(input.destination.code).type,
        });
      }),
      { numRuns: 400 },
    );
  });
});

describe("price, from amount_out", () => {
  const inverseCase = fc.tuple(pair, profile, rates).chain(([[source, destination], fees, table]) =>
    fc
      .bigInt({ min: 1n, max: 10n ** BigInt(factsOf(destination.code).places + 7) })
      .map((units): PriceInput & { amount_out: string } => ({
        source,
        destination,
        amount_out: decimal(units, factsOf(destination.code).places),
        profile: fees,
        is_third_party: true,
        rates: table,
      })),
  );

  it("answers the smallest amount_in that pays out at least amount_out, priced as that amount_in is", () => {
    fc.assert(
      fc.property(inverseCase, (input) => {
        const wanted = fraction(input.amount_out);
        const { amount_out: _, ...rest } = input;
        const places = factsOf(input.source.code).places;
        let priced: ReturnType<typeof price>;
        try {
          priced = price(input);
        } catch (error) {
          expect(error).toMatchObject({ field: "amount_out", rule: "maximum" });
          // The largest amount_in pays out less, or nothing at all.
          const most = { ...rest, amount_in: decimal(10n ** BigInt(15 + places) - 1n, places) };
          expect(outOrZero(most)).toSatisfy((out: string) => isBelow(out, wanted));
          return;
        }
        expect(isBelow(priced.amount_out.amount ?? "", wanted)).toBe(false);
        expect(price({ ...rest, amount_in: priced.amount_in.amount })).toEqual(priced);
        const units = fraction(priced.amount_in.amount ?? "");
        const less = (units.n * 10n ** BigInt(places)) / units.d - 1n;
        if (less === 0n) return;
        expect(outOrZero({ ...rest, amount_in: decimal(less, places) })).toSatisfy((out: string) =>
          isBelow(out, wanted),
        );
      }),
      { numRuns: 300 },
    );
  });
});

/** The amount out, or "0" when the fees leave nothing. */
function outOrZero(input: PriceInput): string {
  try {
    return price(input).amount_out.amount ?? "";
  } catch (error) {
    expect(error).toMatchObject({ rule: "minimum" });
    return "0";
  }
}

function isBelow(amount: string, bound: { n: bigint; d: bigint }): boolean {
  const value = fraction(amount);
  return value.n * bound.d < bound.n * value.d;
}

describe("price, refusals", () => {
  const base: PriceInput = {
    source: { code: "EUR" },
    destination: { code: "USDC", chain: "Polygon" },
    amount_in: "250.00",
    is_third_party: false,
    rates: DEFAULT_RATES,
  };
  const refusal = (change: Partial<PriceInput>) => {
    try {
      price({ ...base, ...change });
    } catch (error) {
      if (error instanceof PricingError) {
        return { field: error.field, rule: error.rule, message: error.message };
      }
      throw error;
    }
    throw new Error("priced");
  };

  it("names the field and what the sandbox supports", () => {
    expect(refusal({ source: { code: "XAU" } })).toMatchObject({
      field: "source_currency_code",
      rule: "supported",
      message: expect.stringContaining("EUR, GBP, USD, BRL, MXN, USDC, USDT, EURC, ETH, SOL"),
    });
    expect(refusal({ destination: { code: "GBP" } })).toMatchObject({
      field: "destination_currency_code",
      rule: "pair",
      message: expect.stringContaining("fiat to fiat"),
    });
    expect(refusal({ destination: { code: "SOL", chain: "Polygon" } })).toMatchObject({
      field: "destination_currency_chain",
      message: "the sandbox prices SOL on Solana",
    });
    expect(refusal({ source: { code: "EUR", chain: "Base" } })).toMatchObject({
      field: "source_currency_chain",
    });
    expect(refusal({ source: { code: "EUR", type: "Crypto" } })).toMatchObject({
      field: "source_currency_type",
      message: "EUR is a fiat currency",
    });
    expect(refusal({ source: { code: "USDC" }, destination: { code: "USDC" } })).toMatchObject({
      field: "destination_currency_code",
      rule: "pair",
    });
  });

  it("refuses a missing, doubled, zero, over-precise or huge amount", () => {
    expect(refusal({ amount_in: undefined })).toMatchObject({
      field: "amount_in",
      rule: "required",
    });
    expect(refusal({ amount_out: "10" })).toMatchObject({ field: "amount_out", rule: "exclusive" });
    expect(refusal({ amount_in: "0.00" })).toMatchObject({ field: "amount_in", rule: "minimum" });
    expect(refusal({ amount_in: "1.005" })).toMatchObject({
      field: "amount_in",
      rule: "places",
      message: "EUR amounts have at most 2 decimal places",
    });
    // A negative decimal is one the API's pattern takes: it is refused for being below 0.
    for (const negative of ["-5", "-0", "-0.00"]) {
      expect(refusal({ amount_in: negative })).toMatchObject({
        field: "amount_in",
        rule: "minimum",
        message: "must be more than 0",
      });
    }
    expect(refusal({ amount_in: "1000000000000000" })).toMatchObject({ rule: "maximum" });
    expect(refusal({ amount_in: undefined, amount_out: "1.1234567" })).toMatchObject({
      field: "amount_out",
      message: "USDC amounts have at most 6 decimal places",
    });
  });

  it("refuses an amount the deducted fees eat, and a fee profile it cannot price, naming the customer", () => {
    const fees: FeeProfile = {
      id: "p1",
      min_fee: { amount: "5.00", currency: { code: "EUR", type: "Fiat" } },
    };
    expect(refusal({ amount_in: "4.00", profile: fees })).toMatchObject({
      field: "amount_in",
      rule: "minimum",
    });
    expect(
      refusal({
        profile: {
          id: "p2",
          partner_fee_configs: [{ fee_type: { type: "Percent" }, label: "x" }],
        },
      }),
    ).toMatchObject({
      field: "customer_id",
      rule: "fee-profile",
      message: expect.stringContaining("partner_fee_configs[0].fee_type.type"),
    });
    expect(
      refusal({ profile: { id: "p3", min_fee: { amount: "1", currency: { code: "XAU" } } } }),
    ).toMatchObject({ field: "customer_id", message: expect.stringContaining("min_fee") });
  });
});

describe("checkRoute, an autoramp's currencies before any amount", () => {
  const refusalOf = (sources: PriceCurrency[], destination: PriceCurrency) => {
    try {
      checkRoute(sources, destination);
      return undefined;
    } catch (error) {
      if (!(error instanceof PricingError)) throw error;
      return { field: error.field, rule: error.rule, message: error.message };
    }
  };

  it("takes every pair price takes: fiat in, a token without its chain, an offramp to a fiat token", () => {
    expect(
      refusalOf([{ code: "EUR", type: "Fiat" }, { code: "USDT" }], {
        code: "USDC",
        chain: "Polygon",
      }),
    ).toBeUndefined();
    expect(refusalOf([{ code: "USDC", chain: "Solana" }], { code: "EUR" })).toBeUndefined();
  });

  it("refuses what no deposit could be priced for, naming the body's field", () => {
    const usdc: PriceCurrency = { code: "USDC", chain: "Polygon" };
    expect(refusalOf([{ code: "EUR" }], { code: "FOO", chain: "Polygon" })).toMatchObject({
      field: "destination_currency",
      rule: "supported",
    });
    expect(refusalOf([{ code: "EUR" }], { code: "SOL", chain: "Ethereum" })).toMatchObject({
      field: "destination_currency",
      rule: "supported",
      message: "the sandbox prices SOL on Solana",
    });
    expect(refusalOf([], usdc)).toMatchObject({ field: "source_currencies", rule: "minItems" });
    expect(refusalOf([{ code: "EUR" }, { code: "USDC", type: "Fiat" }], usdc)).toMatchObject({
      field: "source_currencies.1",
      rule: "supported",
      message: "USDC is a crypto currency",
    });
    expect(refusalOf([{ code: "EUR", chain: "Polygon" }], usdc)).toMatchObject({
      field: "source_currencies.0",
      rule: "supported",
    });
    expect(refusalOf([usdc], usdc)).toMatchObject({ field: "source_currencies.0", rule: "pair" });
    expect(refusalOf([{ code: "GBP" }], { code: "EUR" })).toMatchObject({
      field: "source_currencies.0",
      rule: "pair",
    });
  });
});
