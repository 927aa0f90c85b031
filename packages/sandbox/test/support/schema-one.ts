// What the schema-1 fixtures (the sandbox's test/fixtures/*-schema-1.sql, made by payments-mock before
// versioned migrations) hold, and the checks that a migrated copy still serves it all.

import { call } from "@org/payments-testing";
import { expect } from "vitest";
import { DEFAULT_EXAMPLE_KEY, MIGRATIONS, SCHEMA_VERSION } from "../../src/store/index.js";

/** The data a database had before partners were kept apart is the example key's partner's. */
export const EXAMPLE_KEY = { "X-API-Key": DEFAULT_EXAMPLE_KEY };
const SUB_PARTNER = { ...EXAMPLE_KEY, "X-SUB-PARTNER-ID": "7d2f0c1e-3a4b-4c5d-8e9f-a0b1c2d3e4f5" };
const KEY = { "IDEMPOTENCY-KEY": "0b9a6a3e-5d1c-4f7e-9a2b-0c1d2e3f4a5b" };

/** The line a mock logs when it migrates the schema-1 database `what` names. */
export function migratedFromSchemaOne(what: string): string {
  const applied = MIGRATIONS.slice(1)
    .map((migration) => `${migration.version}: ${migration.name}`)
    .join("; ");
  return `payments-mock: migrated the ${what} in place from schema 1 to ${SCHEMA_VERSION}, its data kept (${applied}).`;
}

/**
 * Checks, through the sandboxes at `urls` (one or several sharing the data), that the fixture's
 * customer (found by search), its idempotency key, its event and its webhook are all there, for
 * the example key's partner, and that another key's partner has none of them.
 */
export async function expectSchemaOneData(...urls: [string, ...string[]]): Promise<void> {
  const at = (index: number) => urls[index % urls.length] as string;
  const listed = await call(at(0), "GET", "/customers?search_term=KEPT", { headers: SUB_PARTNER });
  expect(listed.body.items.map((c: { name: string }) => c.name)).toEqual(["Kept From Schema 1"]);
  const [kept] = listed.body.items;
  expect(kept.status).toBe("Active");
  const replay = await call(at(1), "POST", "/customers", {
    body: {
      customer_type: "Person",
      email: "kept@example.com",
      name: "Kept From Schema 1",
      external_id: "crm-1",
    },
    headers: { ...SUB_PARTNER, ...KEY },
  });
  // The key's answer is the create's, before the customer was made Active.
  expect(replay.body).toEqual({
    ...kept,
    status: "IdentificationRequired",
    updated_at: kept.created_at,
  });
  const events = await call(at(2), "GET", "/_sandbox/events", { headers: EXAMPLE_KEY });
  expect(events.body.items.map((e: { topic: string }) => e.topic)).toEqual(["CustomerStatus"]);
  const webhooks = await call(at(3), "GET", "/webhooks", { headers: EXAMPLE_KEY });
  expect(webhooks.body.items.map((w: { label: string }) => w.label)).toEqual(["Made by schema 1"]);
  const other = { "X-API-Key": "another-key-than-the-example" };
  expect((await call(at(0), "GET", "/customers", { headers: other })).body.items).toEqual([]);
  expect((await call(at(1), "GET", "/webhooks", { headers: other })).body.items).toEqual([]);
  expect((await call(at(2), "GET", "/_sandbox/events", { headers: other })).body.items).toEqual([]);
}
