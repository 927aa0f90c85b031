// GET /autoramps/quote and GET /exchange-rate on each store: figures recomputed from the README's
// rules (the reference pricing of @org/payments-testing), echoes, times from the sandbox's now, the signature,
// rates from the seed and the control route, and the sandbox's own 422s.
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { specPath } from "@org/payments-spec";
import {
  call,
  createCustomer,
  type PricingTables,
  persistentState,
  referencePrice,
  responseProblems,
} from "@org/payments-testing";
import type { FeeProfile } from "@org/payments-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_CURRENCY, CURRENCIES, NETWORK_FEES, serveSandbox } from "../../src/index.js";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

/** The tables the reference pricing reads: the sandbox's own. */
const PRICING_TABLES: PricingTables = {
  currencies: CURRENCIES,
  networkFees: NETWORK_FEES,
  baseCurrency: BASE_CURRENCY,
};

let sandbox: HttpSandbox;
let customerId: string;
let profile: FeeProfile;

beforeAll(async () => {
  sandbox = await startSandbox();
  customerId = (await createCustomer(sandbox.url)).id;
  profile = (await call(sandbox.url, "GET", "/fee-profiles")).body.items[0];
});
afterAll(() => sandbox.stop());

const WALLET = "0x4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c";

function quoteQuery(changes: Record<string, string | undefined> = {}): string {
  const query: Record<string, string | undefined> = {
    customer_id: customerId,
    source_currency_code: "EUR",
    destination_currency_code: "USDC",
    destination_currency_chain: "Polygon",
    recipient_account: WALLET,
    amount_in: "250.00",
    rate_expiry_policy: "Slippage",
    slippage_tolerance_in_bips: "50",
    expiry_in_hours: "2",
    rate_lock_duration_minutes: "45",
    is_third_party: "true",
    external_id: "order-7731",
    wire_message: "Invoice 2026-118",
    ...changes,
  };
  const defined = Object.entries(query).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  return new URLSearchParams(defined).toString();
}

const getQuote = (url: string, changes: Record<string, string | undefined> = {}) =>
  call(url, "GET", `/autoramps/quote?${quoteQuery(changes)}`);

async function ratesOf(url: string): Promise<Record<string, string>> {
  return (await call(url, "GET", "/_sandbox/rates")).body.rates;
}

describe("GET /autoramps/quote", () => {
  it("prices the request by the README's rules and echoes what it sent", async () => {
    const before = Date.now();
    const answer = await getQuote(sandbox.url);
    const after = Date.now();
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(responseProblems("getAutorampQuote", answer.body)).toEqual([]);
    const quote = answer.body;
    const expected = referencePrice(
      {
        source: "EUR",
        sourceType: "Fiat",
        destination: "USDC",
        destinationType: "Crypto",
        chain: "Polygon",
        amountIn: "250.00",
        profile,
        rates: await ratesOf(sandbox.url),
        fiatLeg: { rail: "Sepa", transfer: "PayIn" },
      },
      PRICING_TABLES,
    );
    expect(quote.rate).toBe(expected?.rate);
    expect(quote.amount_in).toEqual({ amount: "250.00", currency: { code: "EUR", type: "Fiat" } });
    expect(quote.amount_out).toEqual({
      amount: expected?.amount_out,
      currency: { code: "USDC", type: "Crypto" },
    });
    for (const [field, amount] of Object.entries(expected?.fees ?? {})) {
      expect(quote.fee[field], field).toEqual({ amount, currency: { code: "EUR", type: "Fiat" } });
    }
    expect(
      quote.fee.partner_fees.map((item: { fee: { amount: string } }) => item.fee.amount),
    ).toEqual(expected?.partner_fees.map((item) => item.fee));
    expect(quote.fee_settlement).toBe(expected?.fee_settlement);
    expect(quote).toMatchObject({
      customer_id: customerId,
      source_currency: { token: "EUR" },
      destination_currency: { token: "USDC", blockchain: "Polygon" },
      recipient_account: { account_identifier: { iban: WALLET } },
      rate_expiry_policy: "Slippage",
      slippage_tolerance_in_bips: "50",
      is_third_party: true,
      external_id: "order-7731",
      wire_message: "Invoice 2026-118",
      deposit_account_type: "Iban",
    });
    expect(quote.quote_id).toMatch(/^[0-9a-f-]{36}$/);
    // Both times from one sandbox now, within the request's span.
    const validUntil = Date.parse(quote.valid_until);
    const lockUntil = Date.parse(quote.rate_lock_valid_until);
    expect(validUntil - lockUntil).toBe(2 * 3_600_000 - 45 * 60_000);
    expect(validUntil).toBeGreaterThanOrEqual(before + 2 * 3_600_000);
    expect(validUntil).toBeLessThanOrEqual(after + 2 * 3_600_000);
  });

  it("gives a fresh quote_id each time, a fiat recipient its type, and a crypto side its default chain", async () => {
    const first = (await getQuote(sandbox.url)).body;
    const offramp = await getQuote(sandbox.url, {
      source_currency_code: "USDT",
      destination_currency_code: "GBP",
      destination_currency_chain: undefined,
      recipient_account: "GB33BUKB20201555555555",
      amount_in: "1200.5",
    });
    expect(offramp.status, JSON.stringify(offramp.body)).toBe(200);
    expect(responseProblems("getAutorampQuote", offramp.body)).toEqual([]);
    expect(offramp.body.quote_id).not.toBe(first.quote_id);
    expect(offramp.body).toMatchObject({
      source_currency: { token: "USDT", blockchain: "Ethereum" },
      destination_currency: { token: "GBP" },
      recipient_account: { type: "Fiat", account_identifier: { iban: "GB33BUKB20201555555555" } },
      amount_in: { amount: "1200.500000", currency: { code: "USDT", type: "Crypto" } },
      deposit_account_type: "Wallet",
    });
    expect(offramp.body.fee.network_fees).toEqual([]);
  });

  it("limits valid_until to the rate lock under Return, and locks 30 minutes when asked for no lock", async () => {
    const returned = (await getQuote(sandbox.url, { rate_expiry_policy: "Return" })).body;
    expect(returned.valid_until).toBe(returned.rate_lock_valid_until);
    const unlocked = (
      await getQuote(sandbox.url, {
        rate_expiry_policy: "Return",
        rate_lock_duration_minutes: undefined,
        expiry_in_hours: "24",
      })
    ).body;
    expect(unlocked.valid_until).toBe(unlocked.rate_lock_valid_until);
    const shorter = (
      await getQuote(sandbox.url, {
        rate_expiry_policy: "Return",
        rate_lock_duration_minutes: "600",
        expiry_in_hours: "1",
      })
    ).body;
    expect(Date.parse(shorter.rate_lock_valid_until) - Date.parse(shorter.valid_until)).toBe(
      540 * 60_000,
    );
    const slipping = (
      await getQuote(sandbox.url, { rate_lock_duration_minutes: undefined, expiry_in_hours: "1" })
    ).body;
    expect(Date.parse(slipping.valid_until) - Date.parse(slipping.rate_lock_valid_until)).toBe(
      30 * 60_000,
    );
  });

  it("prices amount_out as the smallest amount_in that pays at least it", async () => {
    const answer = await getQuote(sandbox.url, { amount_in: undefined, amount_out: "1000.00" });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const amountIn = answer.body.amount_in.amount;
    expect(Number.parseFloat(answer.body.amount_out.amount)).toBeGreaterThanOrEqual(1000);
    const forward = (await getQuote(sandbox.url, { amount_in: amountIn })).body;
    expect(forward.amount_out).toEqual(answer.body.amount_out);
    expect(forward.fee).toEqual(answer.body.fee);
    const cents = Math.round(Number.parseFloat(amountIn) * 100) - 1;
    const less = (await getQuote(sandbox.url, { amount_in: (cents / 100).toFixed(2) })).body;
    expect(Number.parseFloat(less.amount_out.amount)).toBeLessThan(1000);
  });

  it("answers 422 naming the field for what it cannot price, and for times that are not after now", async () => {
    const cases: [Record<string, string | undefined>, string, string][] = [
      [{ amount_in: undefined }, "amount_in", "required"],
      [{ amount_out: "10.00" }, "amount_out", "exclusive"],
      [{ source_currency_code: "XAU" }, "source_currency_code", "supported"],
      [
        { destination_currency_code: "GBP", destination_currency_chain: undefined },
        "destination_currency_code",
        "pair",
      ],
      [
        { destination_currency_chain: "Stellar", destination_currency_code: "ETH" },
        "destination_currency_chain",
        "supported",
      ],
      [{ amount_in: "250.001" }, "amount_in", "places"],
      [{ amount_in: "0" }, "amount_in", "minimum"],
      [{ amount_in: "-0" }, "amount_in", "minimum"],
      [{ amount_in: undefined, amount_out: "-250.00" }, "amount_out", "minimum"],
      [{ expiry_in_hours: "-5" }, "expiry_in_hours", "minimum"],
      [{ expiry_in_hours: "0" }, "expiry_in_hours", "minimum"],
      [{ rate_lock_duration_minutes: "-30" }, "rate_lock_duration_minutes", "minimum"],
      [{ rate_lock_duration_minutes: "9000000000000" }, "rate_lock_duration_minutes", "maximum"],
      [{ slippage_tolerance_in_bips: "-5" }, "slippage_tolerance_in_bips", "minimum"],
    ];
    for (const [changes, field, rule] of cases) {
      const answer = await getQuote(sandbox.url, changes);
      expect(answer.status, JSON.stringify(changes)).toBe(422);
      expect(answer.body.errors, JSON.stringify(changes)).toContainEqual(
        expect.objectContaining({ location: "query", field, rule }),
      );
    }
    const unsupported = await getQuote(sandbox.url, { source_currency_code: "XAU" });
    expect(unsupported.body.errors[0].message).toContain(Object.keys(CURRENCIES).join(", "));
  });

  it("signs the quote: the control route tells an unmodified quote from a changed one", async () => {
    const quote = (await getQuote(sandbox.url)).body;
    const verify = (body: unknown) =>
      call(sandbox.url, "POST", "/_sandbox/quotes/verify", { body });
    const fresh = { valid: true, expired: false, rate_lock_expired: false };
    expect((await verify(quote)).body).toEqual(fresh);
    // Key order does not matter: the signature covers the canonical JSON.
    const reordered = Object.fromEntries(Object.entries(quote).reverse());
    expect((await verify(reordered)).body).toEqual(fresh);
    const changed = { ...quote, amount_out: { ...quote.amount_out, amount: "999999.000000" } };
    expect((await verify(changed)).body).toEqual({ valid: false });
    expect((await verify({ ...quote, signature: undefined })).status).toBe(422);

    const key = (await call(sandbox.url, "GET", "/_sandbox/quotes/signing-key")).body;
    expect(key.algorithm).toBe("HMAC-SHA256");
    const { signature, ...fields } = quote;
    expect(createHmac("sha256", key.key).update(sortedJson(fields)).digest("base64")).toBe(
      signature,
    );
  });
});

describe("a quote's expiry on the sandbox clock", () => {
  it("passes its rate lock, then its valid_until, as the clock is advanced", async () => {
    const own = await startSandbox();
    try {
      const customer = (await createCustomer(own.url)).id;
      const quote = (await getQuote(own.url, { customer_id: customer })).body;
      const verify = async () =>
        (await call(own.url, "POST", "/_sandbox/quotes/verify", { body: quote })).body;
      const advanceTo = (to: string) =>
        call(own.url, "POST", "/_sandbox/clock/advance", { body: { to } });
      const justBefore = (time: string) => new Date(Date.parse(time) - 1_000).toISOString();

      await advanceTo(justBefore(quote.rate_lock_valid_until));
      expect(await verify()).toEqual({ valid: true, expired: false, rate_lock_expired: false });
      await advanceTo(quote.rate_lock_valid_until);
      expect(await verify()).toEqual({ valid: true, expired: false, rate_lock_expired: true });
      await advanceTo(quote.valid_until);
      expect(await verify()).toEqual({ valid: true, expired: true, rate_lock_expired: true });
      // A changed quote is not the sandbox's: nothing more is said of it.
      expect(
        (
          await call(own.url, "POST", "/_sandbox/quotes/verify", {
            body: { ...quote, rate: "1" },
          })
        ).body,
      ).toEqual({ valid: false });
    } finally {
      await own.stop();
    }
  });
});

/** JSON with sorted keys, written here independently of the sandbox's canonicalJson. */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.keys(inner)
            .sort()
            .map((key) => [key, inner[key]]),
        )
      : inner,
  );
}

describe("GET /exchange-rate", () => {
  it("prices the pair asked for, the partner fee in bips included, and echoes it", async () => {
    const query = new URLSearchParams({
      customer_id: customerId,
      source_currency_code: "GBP",
      source_currency_type: "fiat",
      destination_currency_code: "USDT",
      destination_currency_type: "crypto",
      destination_currency_chain: "Solana",
      amount: "5000",
      _partner_fee_in_bips: "25",
    });
    const answer = await call(sandbox.url, "GET", `/exchange-rate?${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(responseProblems("getExchangeRate", answer.body)).toEqual([]);
    const expected = referencePrice(
      {
        source: "GBP",
        sourceType: "Fiat",
        destination: "USDT",
        destinationType: "Crypto",
        chain: "Solana",
        amountIn: "5000",
        profile,
        partnerFeeInBips: "25",
        rates: await ratesOf(sandbox.url),
        fiatLeg: { rail: "Fps", transfer: "PayIn" },
      },
      PRICING_TABLES,
    );
    expect(answer.body).toMatchObject({
      effective_rate: expected?.effective_rate,
      from: { token: "GBP" },
      to: { token: "USDT", blockchain: "Solana" },
      out_amount: { amount: expected?.amount_out, currency: { code: "USDT", type: "Crypto" } },
    });
    expect(answer.body.fee.total_fee.amount).toBe(expected?.fees.total_fee);
    expect(answer.body.fee.partner_fees).toContainEqual({
      fee: { amount: "12.50", currency: { code: "GBP", type: "Fiat" } },
      label: "Partner fee in bips",
      settlement: "deductedImmediately",
    });
  });

  it("answers 422 naming _partner_fee_in_bips past its uint64, where it priced the fee and blamed amount", async () => {
    const rateWith = (bips: string) =>
      call(
        sandbox.url,
        "GET",
        `/exchange-rate?${new URLSearchParams({
          customer_id: customerId,
          source_currency_code: "EUR",
          source_currency_type: "fiat",
          destination_currency_code: "USDC",
          destination_currency_type: "crypto",
          destination_currency_chain: "Polygon",
          amount: "250.00",
          _partner_fee_in_bips: bips,
        })}`,
      );
    for (const bips of ["18446744073709551616", "9".repeat(400)]) {
      const answer = await rateWith(bips);
      expect(answer.status, bips).toBe(422);
      expect(answer.body.errors).toEqual([
        {
          location: "query",
          field: "_partner_fee_in_bips",
          rule: "format",
          message: expect.stringContaining("must be a whole number from 0 to 18446744073709551615"),
        },
      ]);
    }
  });

  it("answers 422 for a type that is not the currency's, naming it", async () => {
    const query = new URLSearchParams({
      customer_id: customerId,
      source_currency_code: "EUR",
      source_currency_type: "crypto",
      destination_currency_code: "USDC",
      destination_currency_type: "crypto",
      amount: "10",
    });
    const answer = await call(sandbox.url, "GET", `/exchange-rate?${query}`);
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0]).toMatchObject({
      field: "source_currency_type",
      rule: "supported",
    });
  });
});

describe("rates and the signing secret in the store", () => {
  const dir = mkdtempSync(join(tmpdir(), "payments-sandbox-pricing-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("survive a restart: the changed rates price, and an earlier quote still verifies", async () => {
    const state = await persistentState(dir, "restart.db");
    const first = await startSandbox({ state });
    let quote: Record<string, unknown>;
    try {
      const customer = (await createCustomer(first.url)).id;
      await call(first.url, "POST", "/_sandbox/rates", { body: { rates: { SOL: "150.5" } } });
      quote = (await getQuote(first.url, { customer_id: customer })).body;
    } finally {
      await first.stop();
    }
    const second = await startSandbox({ state });
    try {
      expect((await ratesOf(second.url)).SOL).toBe("150.5");
      const verified = await call(second.url, "POST", "/_sandbox/quotes/verify", { body: quote });
      expect(verified.body).toMatchObject({ valid: true });
    } finally {
      await second.stop();
    }
  });
});

describe("the rate table", () => {
  it("moves the market between two quotes through POST /_sandbox/rates, and reset brings the seed's back", async () => {
    const own = await startSandbox({ seed: { customers: [], rates: { EUR: "1.2" } } });
    try {
      const customer = (await createCustomer(own.url)).id;
      const quote = async () => (await getQuote(own.url, { customer_id: customer })).body;
      expect((await ratesOf(own.url)).EUR).toBe("1.2");
      expect((await quote()).rate).toBe("1.2");
      const changed = await call(own.url, "POST", "/_sandbox/rates", {
        body: { rates: { EUR: "1.25", USDC: "0.9999" } },
      });
      expect(changed.status).toBe(200);
      expect(changed.body.rates).toMatchObject({ EUR: "1.25", USDC: "0.9999", GBP: "1.2712" });
      // 1.25 / 0.9999 to 12 significant digits, half up.
      expect((await quote()).rate).toBe("1.2501250125");
      await call(own.url, "POST", "/_sandbox/reset");
      expect(await ratesOf(own.url)).toMatchObject({ EUR: "1.2", USDC: "1" });
    } finally {
      await own.stop();
    }
  });

  it("refuses a rate it cannot use, naming the currency", async () => {
    const answer = await call(sandbox.url, "POST", "/_sandbox/rates", {
      body: { rates: { EUR: "-1", XAU: "2000", USD: "1.1" } },
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors.map((error: { field: string }) => error.field).sort()).toEqual([
      "rates.EUR",
      "rates.USD",
      "rates.XAU",
    ]);
    expect((await call(sandbox.url, "POST", "/_sandbox/rates", { body: {} })).status).toBe(422);
    expect(
      (await call(sandbox.url, "GET", "/_sandbox/rates", { headers: { "X-API-Key": "" } })).status,
    ).toBe(401);
  });

  it("refuses a seed whose rates it cannot use", async () => {
    // Refused before any store opens.
    const seed = { rates: { EUR: "abc" } };
    await expect(serveSandbox({ spec: specPath, seed })).rejects.toThrow(
      /"rates" "EUR" must be a positive decimal string/,
    );
  });
});
