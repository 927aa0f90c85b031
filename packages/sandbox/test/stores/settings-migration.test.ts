// The rates and the quote-signing secret live in the store's settings table, on each store. A
// database made before that table (schema 1, the fixture) gets it, with the default rates.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { specPath } from "@org/payments-spec";
import { API_KEY, call, newKey, persistentState } from "@org/payments-testing";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { serveSandbox } from "../../src/index.js";
import { DEFAULT_RATES } from "../../src/money/rates.js";
import { quotePath } from "../support/sandbox.js";

const sandboxStore = inject("sandboxStore");

/** A sandbox whose example key is the tests' key, as the mock's sandbox tests start it. */
const startSandbox = (state: string) =>
  serveSandbox({ spec: specPath, state, exampleKey: API_KEY });

async function createCustomer(url: string): Promise<{ id: string }> {
  const answer = await call(url, "POST", "/customers", {
    body: { customer_type: "Person", email: "someone@example.com" },
    headers: newKey(),
  });
  if (answer.status !== 200) throw new Error(`create customer: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

const getQuote = (url: string, query: Record<string, string>) =>
  call(
    url,
    "GET",
    quotePath({
      rate_lock_duration_minutes: "45",
      is_third_party: "true",
      external_id: "order-7731",
      wire_message: "Invoice 2026-118",
      ...query,
    }),
  );

async function ratesOf(url: string): Promise<Record<string, string>> {
  return (await call(url, "GET", "/_sandbox/rates")).body.rates;
}

describe("rates and the signing secret in the store", () => {
  const dir = mkdtempSync(join(tmpdir(), "payments-sandbox-pricing-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("work on a database made before the settings table: it is added, with the default rates", async () => {
    const state = await persistentState(dir, "before-settings.db");
    await schemaOneDatabase(state);
    const again = await startSandbox(state);
    try {
      expect(await ratesOf(again.url)).toEqual(DEFAULT_RATES);
      const customer = (await createCustomer(again.url)).id;
      expect((await getQuote(again.url, { customer_id: customer })).status).toBe(200);
      const changed = await call(again.url, "POST", "/_sandbox/rates", {
        body: { rates: { EUR: "1.1" } },
      });
      expect(changed.body.rates.EUR).toBe("1.1");
    } finally {
      await again.stop();
    }
  });
});

/** Writes the database payments-mock made before the settings table (schema 1, the fixture) at `state`. */
async function schemaOneDatabase(state: string): Promise<void> {
  const fixture = (store: string) =>
    readFileSync(
      fileURLToPath(new URL(`../fixtures/${store}-schema-1.sql`, import.meta.url)),
      "utf8",
    );
  if (sandboxStore === "postgres") {
    const client = new pg.Client({ connectionString: state });
    await client.connect();
    try {
      await client.query(fixture("postgres"));
    } finally {
      await client.end();
    }
    return;
  }
  const db = new DatabaseSync(state);
  try {
    db.exec(fixture("sqlite"));
  } finally {
    db.close();
  }
}
