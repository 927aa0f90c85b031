// A Postgres sandbox's schema comes from the ordered migrations. Two mocks starting together on
// one database (held at the schema lock until both wait for it) apply them once: on a new
// database, and on one made by the release before them (the fixture), which keeps its data and
// is said to be migrated in one line. A database from a newer payments-mock is refused untouched.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { specPath } from "@org/payments-spec";
import { call, createDatabase } from "@org/payments-testing";
import pg from "pg";
import { describe, expect, inject, it, type TestContext } from "vitest";
import { type RunningSandboxServer, serveSandbox } from "../../src/index.js";
import { redactedUrl, SCHEMA_LOCK, SCHEMA_VERSION } from "../../src/store/index.js";
import { EXAMPLE_KEY, expectSchemaOneData, migratedFromSchemaOne } from "../support/schema-one.js";

const fixture = fileURLToPath(new URL("../fixtures/postgres-schema-1.sql", import.meta.url));

/** A connection of the test's own to `url`, closed when the test ends. */
async function connect(context: TestContext, url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  context.onTestFinished(() => client.end());
  return client;
}

async function rows(client: pg.Client, sql: string): Promise<Record<string, unknown>[]> {
  return (await client.query(sql)).rows;
}

const indexesOf = (client: pg.Client) =>
  rows(client, "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1");

/** Each table's storage parameters (a fillfactor), as a new database's and a migrated one's. */
const storageOf = (client: pg.Client) =>
  rows(
    client,
    "SELECT relname, reloptions FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r' ORDER BY 1",
  );

/**
 * Starts two mocks on `state` while the test holds the schema lock, releases it once both wait
 * for it, and collects the lines they log about migrating.
 */
async function twoMocksAtOnce(context: TestContext, state: string) {
  const holder = await connect(context, state);
  await holder.query("BEGIN");
  await holder.query(`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`);
  const lines: string[] = [];
  const log = (line: string) => {
    if (line.includes("migrated")) lines.push(line);
  };
  const starting = [0, 1].map(() => serveSandbox({ spec: specPath, state, log }));
  const mocks: RunningSandboxServer[] = [];
  context.onTestFinished(async () => {
    await Promise.all(mocks.map((mock) => mock.stop()));
  });
  let waiting = 0;
  for (let tries = 0; tries < 600 && waiting < 2; tries++) {
    const [row] = await rows(
      holder,
      `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = ${SCHEMA_LOCK} AND NOT granted`,
    );
    waiting = Number(row?.n);
    if (waiting < 2) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await holder.query("COMMIT");
  mocks.push(...(await Promise.all(starting)));
  expect(waiting, "mocks waiting for the schema lock").toBe(2);
  return { mocks, lines };
}

describe("a sandbox's Postgres schema", () => {
  it("gets every migration once, and the seed once, from two mocks starting together", async (context) => {
    const state = await createDatabase(inject("postgresUrl"));
    const { mocks, lines } = await twoMocksAtOnce(context, state);
    const client = await connect(context, state);
    expect(await rows(client, "SELECT version FROM sandbox_schema")).toEqual([
      { version: SCHEMA_VERSION },
    ]);
    expect(lines).toEqual([]);
    for (const mock of mocks) {
      const listed = await call(mock.url, "GET", "/customers", { headers: EXAMPLE_KEY });
      expect(listed.body.items.map((c: { id: string }) => c.id)).toEqual([
        "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
      ]);
    }
  }, 120_000);

  it("migrates a database made by schema 1 in place, once, keeping its data, in one line", async (context) => {
    const state = await createDatabase(inject("postgresUrl"));
    const client = await connect(context, state);
    await client.query(readFileSync(fixture, "utf8"));
    // Its idempotency key was answered now, as far as its 24 hours of retention go.
    await client.query("UPDATE public.idempotency SET created_at = $1", [Date.now()]);
    const { mocks, lines } = await twoMocksAtOnce(context, state);
    expect(lines).toEqual([migratedFromSchemaOne(`sandbox database ${redactedUrl(state)}`)]);
    expect(await rows(client, "SELECT version FROM sandbox_schema")).toEqual([
      { version: SCHEMA_VERSION },
    ]);
    await expectSchemaOneData(...(mocks.map((mock) => mock.url) as [string, string]));
    // Its indexes are now a new database's.
    const fresh = await createDatabase(inject("postgresUrl"));
    const freshMock = await serveSandbox({ spec: specPath, state: fresh });
    await freshMock.stop();
    const freshClient = await connect(context, fresh);
    expect(await indexesOf(client)).toEqual(await indexesOf(freshClient));
    // Room on the resources' pages for a changed row, which the clock's steps rewrite in place.
    expect(await storageOf(client)).toEqual(await storageOf(freshClient));
    expect(await storageOf(client)).toContainEqual({
      relname: "resources",
      reloptions: ["fillfactor=75"],
    });
  }, 120_000);

  it("refuses a database set up by a newer payments-mock, naming both versions, untouched", async (context) => {
    const state = await createDatabase(inject("postgresUrl"));
    await (await serveSandbox({ spec: specPath, state })).stop();
    const client = await connect(context, state);
    await client.query("UPDATE sandbox_schema SET version = $1", [SCHEMA_VERSION + 1]);
    const tables = () =>
      rows(client, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1");
    const before = { tables: await tables(), indexes: await indexesOf(client) };
    await expect(serveSandbox({ spec: specPath, state })).rejects.toThrow(
      `The sandbox database ${redactedUrl(state)} was set up by a newer payments-mock (schema ${SCHEMA_VERSION + 1}; this one knows up to ${SCHEMA_VERSION}). It was left untouched; upgrade payments-mock.`,
    );
    expect({ tables: await tables(), indexes: await indexesOf(client) }).toEqual(before);
    expect(await rows(client, "SELECT version FROM sandbox_schema")).toEqual([
      { version: SCHEMA_VERSION + 1 },
    ]);
  }, 120_000);
});
