// The README's pricing section against the sandbox: its tables are the code's tables, and every
// figure of its worked example is what the sandbox answers (and what the rules, recomputed with
// BigInt fractions, give).
import { readFileSync } from "node:fs";
import { CURRENCIES, NETWORK_FEES } from "@org/payments-sandbox/money/currencies.js";
import { DEFAULT_RATES } from "@org/payments-sandbox/money/rates.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referenceRate } from "../../../sandbox/test/support/reference-pricing.js";
import { call, createCustomer, startSandbox, type TestSandbox } from "../support/sandbox.js";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The text between `<!-- pricing:name -->` and `<!-- /pricing:name -->`. */
function part(name: string): string {
  const found = new RegExp(`<!-- pricing:${name} -->\\n([\\s\\S]*?)<!-- /pricing:${name} -->`).exec(
    readme,
  );
  if (!found?.[1]) throw new Error(`README.md has no pricing:${name} part`);
  return found[1];
}

/** The body rows of the part's table, each a list of trimmed cells. */
function rows(name: string): string[][] {
  return part(name)
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .slice(2)
    .map((line) =>
      line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim()),
    );
}

describe("the README's pricing tables", () => {
  it("list the currencies the sandbox prices, with their places, chains and rails", () => {
    const listed = rows("currencies").map(([code, type, places, chains, deposit, rail]) => [
      code,
      { type, places: Number(places), chains, deposit, rail },
    ]);
    const actual = Object.entries(CURRENCIES).map(([code, facts]) => [
      code,
      {
        type: facts.type,
        places: facts.places,
        chains: facts.type === "Crypto" ? facts.chains.join(", ") : "",
        deposit: facts.type === "Fiat" ? facts.deposit_account_type : "Wallet",
        rail: facts.type === "Fiat" ? facts.rail : "",
      },
    ]);
    expect(listed).toEqual(actual);
  });

  it("give the default rates and the network fees", () => {
    expect(Object.fromEntries(rows("rates"))).toEqual(DEFAULT_RATES);
    expect(Object.fromEntries(rows("network-fees"))).toEqual(NETWORK_FEES);
  });
});

describe("the README's worked example", () => {
  let sandbox: TestSandbox;
  let customerId: string;
  beforeAll(async () => {
    sandbox = await startSandbox();
    customerId = (await createCustomer(sandbox.url)).id;
  });
  afterAll(() => sandbox.stop());

  const example = part("example");
  const request = /^GET (\S+)$/m.exec(example)?.[1] ?? "";
  const figures = rows("example").map(([name = "", value = ""]) => [name, value] as const);

  it("has a request and figures to check", () => {
    expect(request).toMatch(/^\/autoramps\/quote\?/);
    expect(figures.length).toBeGreaterThanOrEqual(10);
  });

  it("is what the sandbox answers, figure by figure", async () => {
    const answer = await call(sandbox.url, "GET", request.replace("<customer_id>", customerId));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const rates = (await call(sandbox.url, "GET", "/_sandbox/rates")).body.rates;
    for (const [name, value] of figures) {
      const field = /^`(.+)`$/.exec(name)?.[1];
      const pair = /^rate\((\w+) → (\w+)\)$/.exec(name);
      if (field !== undefined) {
        const found = field.split(".").reduce((at, key) => at?.[key], answer.body);
        expect(typeof found === "object" ? found.amount : found, name).toBe(value);
      } else if (pair) {
        expect(referenceRate(rates, pair[1] ?? "", pair[2] ?? ""), name).toBe(value);
      } else {
        throw new Error(`README example row "${name}" is neither a field nor a rate`);
      }
    }
  });

  it("gives the effective rate the README states for the same exchange rate", async () => {
    const stated = /gives `effective_rate`\s+[\d.]+ ÷ [\d.]+ = ([\d.]+)\./.exec(readme)?.[1];
    const quoted = new URLSearchParams(request.split("?")[1]);
    const query = new URLSearchParams({
      customer_id: customerId,
      source_currency_code: quoted.get("source_currency_code") ?? "",
      source_currency_type: "fiat",
      destination_currency_code: quoted.get("destination_currency_code") ?? "",
      destination_currency_type: "crypto",
      destination_currency_chain: quoted.get("destination_currency_chain") ?? "",
      amount: quoted.get("amount_in") ?? "",
    });
    const answer = await call(sandbox.url, "GET", `/exchange-rate?${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.effective_rate).toBe(stated);
  });
});
