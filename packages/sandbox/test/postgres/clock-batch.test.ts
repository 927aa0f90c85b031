// A batch of clock jobs on Postgres (postgres-batch.ts) reads the rows it works on at once and
// writes its changes at its end. Within the batch, every read sees the batch's own changes; after
// it, the database holds exactly what one statement per change would have left; and the
// statements it sends do not grow with the jobs it runs.

import { createDatabase } from "@org/payments-testing";
import pg from "pg";
import { expect, inject, it, type TestContext } from "vitest";
import { postgresBatch } from "../../src/store/postgres-batch.js";
import { openPostgresStore, POSTGRES, withoutNul } from "../../src/store/postgres-store.js";
import type { Query } from "../../src/store/sql-query.js";
import { upkeepOf } from "../../src/store/sql-store.js";
import {
  emptyData,
  holdingResource,
  newStore,
  untilWaitingForLock,
} from "../support/postgres-store.js";

const A = "partner-a";
const B = "partner-b";

/** A new migrated database with a customer `cus_1` (and its signing) for partners A and B. */
async function database(context: TestContext): Promise<pg.Client> {
  const url = await createDatabase(inject("postgresUrl"));
  const store = await openPostgresStore(url, emptyData);
  for (const partner of [A, B]) {
    await store.transaction(partner, async (tx) => {
      await tx.enter(0);
      await tx.insert("customers", { id: "cus_1", status: "Created", name: partner }, undefined);
      await tx.insert("signings", { id: "sig_1", customer_id: "cus_1" }, undefined);
      await tx.schedule({ dueAt: 1, kind: "step", subject: "cus_1", body: { before: true } });
      await tx.recordEvent(attempt("evt_0"));
    });
  }
  await store.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  context.onTestFinished(() => client.end());
  return client;
}

/** A query function on the client, as the store's (see withoutNul), that counts the statements it sends. */
function counted(client: pg.Client): { query: Query; sent: string[] } {
  const sent: string[] = [];
  const query: Query = async (text, params) => {
    sent.push(text);
    return (await client.query(text, params?.map(withoutNul))).rows;
  };
  return { query, sent };
}

function attempt(id: string) {
  return {
    id,
    topic: "CUSTOMER_STATUS",
    webhook_id: "wh_1",
    url: "",
    created_at: "",
    delivered: true,
    payload: {},
  };
}

async function inTransaction<T>(client: pg.Client, work: () => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    const result = await work();
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

it("answers its reads with its own changes, and leaves them in the database", async (context) => {
  const client = await database(context);
  const { query } = counted(client);
  await inTransaction(client, async () => {
    const batch = postgresBatch(query, POSTGRES, upkeepOf(), A);
    await batch.load(["cus_1"]);
    const customer = await batch.find("customers", "cus_1", undefined);
    expect(customer?.resource).toMatchObject({ name: A });
    await batch.update("customers", { ...customer?.resource, id: "cus_1", status: "Active" });
    expect((await batch.find("customers", "cus_1", undefined))?.resource.status).toBe("Active");
    expect(await batch.find("customers", "cus_1", "someone-else")).toBeUndefined();
    const signings = await batch.list("signings", { customerId: "cus_1" });
    await batch.update("signings", { ...signings[0]?.resource, id: "sig_1", signed: true });
    expect((await batch.list("signings", { customerId: "cus_1" }))[0]?.resource.signed).toBe(true);
    expect((await batch.list("customers")).map((stored) => stored.resource.status)).toEqual([
      "Active",
    ]);
    // A search is the database's: it sees the change too.
    expect((await batch.list("customers", { search: "partner-a" }))[0]?.resource.status).toBe(
      "Active",
    );
    await batch.flush();
  });
  const { rows } = await client.query(
    "SELECT partner, collection, body FROM resources ORDER BY partner, seq",
  );
  expect(rows.map((row) => [row.partner, row.collection, JSON.parse(row.body)])).toEqual([
    [A, "customers", { id: "cus_1", status: "Active", name: A }],
    [A, "signings", { id: "sig_1", customer_id: "cus_1", signed: true }],
    [B, "customers", { id: "cus_1", status: "Created", name: B }],
    [B, "signings", { id: "sig_1", customer_id: "cus_1" }],
  ]);
});

it("cancels the steps scheduled before a cancel, its own and the database's, and keeps later ones", async (context) => {
  const client = await database(context);
  const { query } = counted(client);
  await inTransaction(client, async () => {
    const batch = postgresBatch(query, POSTGRES, upkeepOf(), A);
    await batch.schedule({ dueAt: 2, kind: "step", subject: "cus_1", body: { n: 1 } });
    await batch.schedule({ dueAt: 2, kind: "deliver", subject: "cus_1", body: { n: 2 } });
    await batch.cancelSteps("cus_1");
    await batch.schedule({ dueAt: 3, kind: "step", subject: "cus_1", body: { n: 3 } });
    expect(await batch.hasDue(3)).toBe(true);
    await batch.cancelSteps("cus_1");
    await batch.schedule({ dueAt: 4, kind: "step", subject: "cus_1", body: { n: 4 } });
    await batch.flush();
  });
  const { rows } = await client.query(
    "SELECT partner, kind, body FROM scheduled_work ORDER BY partner, seq",
  );
  expect(rows.map((row) => [row.partner, row.kind, JSON.parse(row.body)])).toEqual([
    [A, "deliver", { n: 2 }],
    [A, "step", { n: 4 }],
    [B, "step", { before: true }],
  ]);
});

it("numbers the attempts it records after the partner's last", async (context) => {
  const client = await database(context);
  const { query } = counted(client);
  await inTransaction(client, async () => {
    const batch = postgresBatch(query, POSTGRES, upkeepOf(), A);
    await batch.recordEvent(attempt("evt_1"));
    await batch.recordEvent(attempt("evt_2"));
    expect((await batch.events()).map((event) => event.id)).toEqual(["evt_2", "evt_1", "evt_0"]);
    await batch.recordEvent(attempt("evt_3"));
    await batch.flush();
  });
  const { rows } = await client.query("SELECT partner, n, body FROM events ORDER BY partner, n");
  expect(rows.map((row) => [row.partner, Number(row.n), JSON.parse(row.body).id])).toEqual([
    [A, 1, "evt_0"],
    [A, 2, "evt_1"],
    [A, 3, "evt_2"],
    [A, 4, "evt_3"],
    [B, 1, "evt_0"],
  ]);
});

it("sends as many statements for a hundred customers' steps as for one", async (context) => {
  const client = await database(context);
  const statementsFor = async (customers: number) => {
    const ids = Array.from({ length: customers }, (_, index) => `cus_${customers}_${index}`);
    await inTransaction(client, async () => {
      const setup = postgresBatch(counted(client).query, POSTGRES, upkeepOf(), A);
      for (const id of ids) await setup.insert("customers", { id, status: "Created" }, undefined);
    });
    const { query, sent } = counted(client);
    await inTransaction(client, async () => {
      const batch = postgresBatch(query, POSTGRES, upkeepOf(), A);
      await batch.load(ids);
      for (const id of ids) {
        const stored = await batch.find("customers", id, undefined);
        await batch.update("customers", { ...stored?.resource, id, status: "Active" });
        await batch.list("webhooks");
        await batch.list("signings", { customerId: id });
        await batch.cancelSteps(id);
        await batch.schedule({ dueAt: 5, kind: "step", subject: id, body: {} });
        await batch.recordEvent(attempt(`evt_${id}`));
      }
      await batch.flush();
    });
    const { rows } = await client.query(
      "SELECT count(*) AS n FROM resources WHERE partner = $1 AND body LIKE '%Active%' AND id = ANY($2)",
      [A, ids],
    );
    expect(Number(rows[0]?.n)).toBe(customers);
    return sent.length;
  };
  const one = await statementsFor(1);
  expect(await statementsFor(100)).toBe(one);
  expect(one).toBeLessThanOrEqual(8);
});

it("keeps a U+0000 in what it writes as the database does (U+FFFD in text, escaped in JSON)", async (context) => {
  const client = await database(context);
  const { query } = counted(client);
  const id = "cus_\u0000nul";
  await inTransaction(client, async () => {
    const setup = postgresBatch(query, POSTGRES, upkeepOf(), A);
    await setup.insert("customers", { id, status: "Created" }, undefined);
  });
  await inTransaction(client, async () => {
    const batch = postgresBatch(query, POSTGRES, upkeepOf(), A);
    await batch.load([id]);
    const stored = await batch.find("customers", id, undefined);
    expect(stored?.resource.id).toBe(id);
    await batch.update("customers", { id, status: "Active", name: "A\u0000B" });
    await batch.schedule({ dueAt: 5, kind: "step", subject: id, body: { id } });
    await batch.recordEvent(attempt(id));
    await batch.flush();
  });
  const { rows } = await client.query("SELECT body, search FROM resources WHERE id = $1", [
    "cus_\uFFFDnul",
  ]);
  expect(JSON.parse(rows[0]?.body)).toEqual({ id, status: "Active", name: "A\u0000B" });
  expect(rows[0]?.search).toContain("a\uFFFDb");
  const jobs = await client.query("SELECT subject, body FROM scheduled_work WHERE due_at = 5");
  expect(jobs.rows.map((row) => [row.subject, JSON.parse(row.body)])).toEqual([
    ["cus_\uFFFDnul", { id }],
  ]);
  const events = await client.query("SELECT body FROM events WHERE partner = $1 ORDER BY n", [A]);
  expect(JSON.parse(events.rows.at(-1)?.body).id).toBe(id);
});

it("runs a batch again when Postgres ends it to break a deadlock", async (context) => {
  const { url, store } = await newStore(context);
  await store.transaction(A, async (tx) => {
    await tx.enter(0);
    await tx.insert("customers", { id: "cus_1", status: "Created" }, undefined);
    await tx.schedule({ dueAt: 1, kind: "step", subject: "cus_1", body: {} });
  });
  const other = await holdingResource(context, url, "cus_1");
  let performed = 0;
  const running = store.runBatch(A, "step", 1, 256, async () => {
    performed++;
    return async (tx) => {
      await tx.update("customers", { id: "cus_1", status: "Active" });
      return 1;
    };
  });
  // The batch holds its job and waits for the customer; the other now waits for the job.
  await untilWaitingForLock(other, "%FROM resources%");
  await other.query("SELECT seq FROM scheduled_work WHERE partner = $1 FOR UPDATE", [A]);
  await other.query("COMMIT");
  // Run again, the batch finds the job (or finds it held still and leaves it for the next run).
  const ran = await running;
  const after =
    ran === 1
      ? 0
      : await store.runBatch(A, "step", 1, 256, async () => {
          performed++;
          return async (tx) => {
            await tx.update("customers", { id: "cus_1", status: "Active" });
            return 1;
          };
        });
  expect(ran + after).toBe(1);
  expect(performed).toBeGreaterThanOrEqual(2);
  const customer = await store.transaction(A, (tx) => tx.find("customers", "cus_1", undefined));
  expect(customer?.resource.status).toBe("Active");
});
