// The pricing guide against the sandbox: its tables are the code's tables, and every figure of
// its worked example is what the sandbox answers (and what the rules, recomputed with BigInt
// fractions by the tests' reference pricing, give). Moved here with the guide from the mock's
// README.
import { startMock } from "@org/payments-mock";
import { CURRENCIES, DEFAULT_RATES, NETWORK_FEES } from "@org/payments-sandbox";
import { referenceRate, startTestSandbox, type TestServer } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guideMarkdown } from "./support/guide-blocks.ts";

const guide = guideMarkdown("pricing");
const API_KEY = "pricing-guide";

/** The text between `<!-- pricing:name -->` and `<!-- /pricing:name -->`. */
function part(name: string): string {
  const found = new RegExp(`<!-- pricing:${name} -->\\n([\\s\\S]*?)<!-- /pricing:${name} -->`).exec(
    guide,
  );
  if (!found?.[1]) throw new Error(`guides/pricing.md has no pricing:${name} part`);
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

describe("the pricing guide's tables", () => {
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

describe("the pricing guide's worked example", () => {
  let sandbox: TestServer;
  let customerId: string;
  const call = async (method: string, target: string, body?: unknown) => {
    const answer = await fetch(`${sandbox.url}${target}`, {
      method,
      headers: {
        "X-API-Key": API_KEY,
        "Content-Type": "application/json",
        ...(method === "POST" && { "IDEMPOTENCY-KEY": crypto.randomUUID() }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: an answer's JSON, read field by field
    return { status: answer.status, body: (await answer.json()) as any };
  };
  beforeAll(async () => {
    sandbox = await startTestSandbox((state) => startMock({ stateful: true, state }));
    const created = await call("POST", "/customers", {
      customer_type: "Person",
      email: "pricing@example.com",
    });
    customerId = created.body.id;
  });
  afterAll(() => sandbox?.stop());

  const example = part("example");
  const request = /^GET (\S+)$/m.exec(example)?.[1] ?? "";
  const figures = rows("example").map(([name = "", value = ""]) => [name, value] as const);

  it("has a request and figures to check", () => {
    expect(request).toMatch(/^\/autoramps\/quote\?/);
    expect(figures.length).toBeGreaterThanOrEqual(10);
  });

  it("is what the sandbox answers, figure by figure", async () => {
    const answer = await call("GET", request.replace("<customer_id>", customerId));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const rates = (await call("GET", "/_sandbox/rates")).body.rates;
    for (const [name, value] of figures) {
      const field = /^`(.+)`$/.exec(name)?.[1];
      const pair = /^rate\((\w+) → (\w+)\)$/.exec(name);
      if (field !== undefined) {
        const found = field.split(".").reduce((at, key) => at?.[key], answer.body);
        expect(typeof found === "object" ? found.amount : found, name).toBe(value);
      } else if (pair) {
        expect(referenceRate(rates, pair[1] ?? "", pair[2] ?? ""), name).toBe(value);
      } else {
        throw new Error(`guide example row "${name}" is neither a field nor a rate`);
      }
    }
  });

  it("gives the effective rate the guide states for the same exchange rate", async () => {
    const stated = /gives `effective_rate`\s+[\d.]+ ÷ [\d.]+ = ([\d.]+)\./.exec(guide)?.[1];
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
    const answer = await call("GET", `/exchange-rate?${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.effective_rate).toBe(stated);
  });
});
