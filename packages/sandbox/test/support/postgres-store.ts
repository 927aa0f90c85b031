// What the tests of the Postgres store itself share: a new store with nothing in it, and a second
// connection's transaction to build a deadlock with.
import { createDatabase } from "@org/payments-testing";
import pg from "pg";
import { inject, type TestContext } from "vitest";
import { openPostgresStore } from "../../src/store/postgres-store.js";
import { COLLECTIONS, type SandboxData, type Stored } from "../../src/store/sandbox-data.js";

/** A store's start with nothing in it. */
export const emptyData = (): SandboxData => ({
  collections: Object.fromEntries(
    COLLECTIONS.map((name) => [name, [] as Stored[]]),
  ) as SandboxData["collections"],
  idempotency: {},
  events: [],
});

/** A store on a new database of the run's Postgres, with nothing in it (closed when the test ends). */
export async function newStore(context: TestContext) {
  const url = await createDatabase(inject("postgresUrl"));
  const store = await openPostgresStore(url, emptyData);
  context.onTestFinished(() => store.close());
  return { url, store };
}

/** Until a statement whose text is LIKE `pattern` waits for a lock (a minute at most). */
export async function untilWaitingForLock(client: pg.Client, pattern: string): Promise<void> {
  for (let tries = 0; tries < 3000; tries++) {
    // A transaction reads the activity once unless told to read it again.
    await client.query("SELECT pg_stat_clear_snapshot()");
    const waiting = await client.query(
      "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1",
      [pattern],
    );
    if (waiting.rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no statement LIKE ${pattern} waited for a lock within a minute`);
}

/**
 * Another connection's transaction, holding the resource `id` (closed when the test ends). It
 * waits a minute before it looks for a deadlock, so that the store's transaction, which looks
 * after Postgres's default second, is the one Postgres ends.
 */
export async function holdingResource(
  context: TestContext,
  url: string,
  id: string,
): Promise<pg.Client> {
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  context.onTestFinished(() => other.end());
  await other.query("BEGIN");
  await other.query("SET LOCAL deadlock_timeout = '60s'");
  await other.query("SELECT id FROM resources WHERE id = $1 FOR UPDATE", [id]);
  return other;
}
