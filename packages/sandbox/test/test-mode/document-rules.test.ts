// The rules the control routes leave to the test-mode document are the sandbox's own: its enums
// are the lifecycles' states and outcomes, so that the document refuses exactly what the sandbox
// cannot do.
import { readdirSync, readFileSync } from "node:fs";
import { expect, test } from "vitest";
import document from "../../src/generated/test-mode.json" with { type: "json" };
import {
  AUTORAMP,
  CUSTOMER,
  FIAT_ADDRESS,
  IDENTIFICATION,
  type Lifecycle,
  outcomesOf,
  TRANSACTION,
} from "../../src/lifecycle/lifecycles.js";

type Schema = { $ref?: string; enum?: string[]; properties?: Record<string, Schema> };
const schemas = document.components.schemas as Record<string, Schema>;

/** The schema, or the one its local `$ref` names. */
function resolved(schema: Schema | undefined): Schema | undefined {
  const name = schema?.$ref?.replace("#/components/schemas/", "");
  return name === undefined ? schema : schemas[name];
}

test.each([
  ["CustomerStatusChange", CUSTOMER],
  ["IdentificationStatusChange", IDENTIFICATION],
  ["AutorampStatusChange", AUTORAMP],
  ["FiatAddressStatusChange", FIAT_ADDRESS],
] as Array<[string, Lifecycle]>)("%s takes the lifecycle's states", (name, lifecycle) => {
  const status = resolved(schemas[name]?.properties?.status);
  expect(status?.enum).toEqual([...lifecycle.states]);
});

test("a transaction's status is a state of its lifecycle unless forced", () => {
  const change = schemas.AutorampTransactionStatusChange as Schema & {
    if?: unknown;
    else?: Schema;
  };
  expect(change.if).toEqual({ required: ["force"], properties: { force: { const: true } } });
  expect(resolved(change.else?.properties?.status)?.enum).toEqual([...TRANSACTION.states]);
});

test("a deposit's outcomes are the transaction's endings and their words", () => {
  const outcome = schemas.Deposit?.properties?.outcome;
  expect(outcome?.enum).toEqual([
    "Completed",
    ...outcomesOf(TRANSACTION),
    "completed",
    "rejected",
    "failed",
  ]);
  expect(schemas.Deposit).toMatchObject({ not: { required: ["currency", "source_currency"] } });
});

test("a fiat address's outcomes are its lifecycle's", () => {
  expect(schemas.NewFiatAddress?.properties?.outcome?.enum).toEqual(outcomesOf(FIAT_ADDRESS));
});

/** The source files (not generated) of the sandbox and of the engine it answers through. */
function sources(dir: URL): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.startsWith("generated"))
    .map((file) => readFileSync(new URL(file, dir), "utf8"));
}

test("names every problem type the sandbox answers with, and its status, in the Errors section", () => {
  // A refusal's type is a rule the sandbox enforces: the document a client reads states each one.
  const texts = [
    ...sources(new URL("../../src/", import.meta.url)),
    // The engine's sources: the folder of its entry, found through its package.
    ...sources(new URL(".", import.meta.resolve("@org/payments-engine"))),
  ].join("\n");
  const made =
    /(?:problemAnswer|problem|refuse)\(\s*(\d{3}|[a-z]+),\s*"([a-z]+(?:-[a-z]+)*)"|kind: "([a-z]+(?:-[a-z]+)+)",\s*title:/g;
  const types = new Set<string>();
  for (const match of texts.matchAll(made)) types.add((match[2] ?? match[3]) as string);
  expect(types.size).toBeGreaterThan(10);
  const errors = document.info.description.slice(
    document.info.description.indexOf("## Errors"),
    document.info.description.indexOf("## Deprecation headers"),
  );
  expect([...types].filter((type) => !errors.includes(`\`${type}\``))).toEqual([]);
  // The rules of the sandbox's prices, which its quotes and exchange rates refuse with.
  const pricing = [...texts.matchAll(/PricingError\(\s*[^,]+,\s*"([a-z]+(?:-[a-z]+)*)"/g)].map(
    (match) => match[1] as string,
  );
  expect(pricing.length).toBeGreaterThan(5);
  expect(pricing.filter((rule) => !errors.includes(`\`${rule}\``))).toEqual([]);
  for (const match of texts.matchAll(made)) {
    if (match[1] === undefined || !/^\d{3}$/.test(match[1])) continue;
    expect(errors, `${match[2]}: ${match[1]}`).toContain(`| \`${match[1]}\` |`);
  }
});

test("lists in x-sandbox-rules every rule the sandbox refuses an API request by that the API's document cannot state", () => {
  const rules = (document as unknown as Record<string, unknown>)["x-sandbox-rules"] as Record<
    string,
    { status: number; type: string; location: string; fields: string[]; rule: string }[]
  >;
  const listed = (operationId: string) => rules[operationId] ?? [];
  const api = sources(new URL("../../src/api/", import.meta.url)).join("\n");
  // The API routes' own refusals: each type, with its rule, listed for an operation or for POST.
  const types = [
    ...api.matchAll(/problemAnswer\(\s*(\d{3}),\s*"([a-z-]+)"[\s\S]*?rule: "([a-z-]+)"/g),
  ];
  expect(types.length).toBeGreaterThan(2);
  for (const [, status, type, rule] of types) {
    const all = Object.values(rules).flat();
    expect(all, `${status} ${type} ${rule}`).toContainEqual(
      expect.objectContaining({ status: Number(status), type, rule }),
    );
  }
  // The quote's times, and every pricing rule, on both operations that price.
  const quoteTimes = [
    ...new Set([...api.matchAll(/rule: "(minimum|maximum)",\s*message/g)].map((m) => m[1])),
  ];
  expect(quoteTimes.sort()).toEqual(["maximum", "minimum"]);
  for (const rule of quoteTimes) {
    expect(listed("getAutorampQuote")).toContainEqual(
      expect.objectContaining({ rule, fields: ["expiry_in_hours", "rate_lock_duration_minutes"] }),
    );
  }
  const pricing = sources(new URL("../../src/money/", import.meta.url)).join("\n");
  const pricingRules = new Set(
    [...pricing.matchAll(/PricingError\(\s*[^,]+,\s*"([a-z]+(?:-[a-z]+)*)"/g)].map((m) => m[1]),
  );
  // A pricing rule refuses a quote's or an exchange rate's query, or an autoramp's currencies.
  for (const rule of pricingRules) {
    const where = ["getAutorampQuote", "getExchangeRate", "createAutoramp"].filter((operationId) =>
      listed(operationId).some((entry) => entry.rule === rule),
    );
    expect(where.length, `pricing rule ${rule}`).toBeGreaterThan(0);
  }
  // Basis points, which the API's decimals let be negative.
  expect(listed("getAutorampQuote")).toContainEqual(
    expect.objectContaining({ rule: "minimum", fields: ["slippage_tolerance_in_bips"] }),
  );
  expect(listed("createAutoramp")).toContainEqual(
    expect.objectContaining({ rule: "minimum", fields: ["additional_partner_fee_in_bips"] }),
  );
});
