// A request's transaction that Postgres ends to break a deadlock (it and another each hold a row
// the other waits for) runs again: the request is answered, not failed with the store's error.
import { openPostgresStore } from "@org/payments-sandbox/store/postgres-store.js";
import { COLLECTIONS, type SandboxData, type Stored } from "@org/payments-sandbox/store/state.js";
import pg from "pg";
import { expect, inject, it } from "vitest";
import { createDatabase } from "../support/postgres.js";

const emptyData = (): SandboxData => ({
  collections: Object.fromEntries(
    COLLECTIONS.map((name) => [name, [] as Stored[]]),
  ) as SandboxData["collections"],
  idempotency: {},
  events: [],
});

const A = "partner-a";

it("runs a request's transaction again when Postgres ends it to break a deadlock", async (context) => {
  const url = await createDatabase(inject("postgresUrl"));
  const store = await openPostgresStore(url, emptyData);
  context.onTestFinished(() => store.close());
  await store.transaction(A, async (tx) => {
    await tx.enter(0);
    await tx.insert("customers", { id: "cus_1", status: "Created" }, undefined);
    await tx.insert("customers", { id: "cus_2", status: "Created" }, undefined);
  });
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  context.onTestFinished(() => other.end());
  // The other transaction holds cus_2 and waits long before it looks for a deadlock, so that the
  // request's transaction is the one Postgres ends.
  await other.query("BEGIN");
  await other.query("SET LOCAL deadlock_timeout = '60s'");
  await other.query("SELECT id FROM resources WHERE id = 'cus_2' FOR UPDATE");
  let attempts = 0;
  const request = store.transaction(A, async (tx) => {
    attempts++;
    await tx.update("customers", { id: "cus_1", status: "Active" });
    await tx.update("customers", { id: "cus_2", status: "Active" });
    return attempts;
  });
  // The request holds cus_1 and waits for cus_2; the other now waits for cus_1.
  for (let tries = 0; tries < 600; tries++) {
    // A transaction reads the activity once unless told to read it again.
    await other.query("SELECT pg_stat_clear_snapshot()");
    const waiting = await other.query(
      "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE resources%'",
    );
    if (waiting.rows.length > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await other.query("SELECT id FROM resources WHERE id = 'cus_1' FOR UPDATE");
  await other.query("COMMIT");

  expect(await request).toBe(2);
  const statuses = await store.transaction(A, async (tx) =>
    (await tx.list("customers")).map((stored) => stored.resource.status),
  );
  expect(statuses).toEqual(["Active", "Active"]);
});
