// A Postgres database made before test mode, with an event still in its outbox: migrated, the
// sandbox sends it.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { specPath } from "@org/payments-spec";
import { createDatabase, startReceiver } from "@org/payments-testing";
import pg from "pg";
import { inject, it } from "vitest";
import { serveSandbox } from "../../src/index.js";
import { expectOutboxDelivered, outboxRow } from "../support/outbox-of-schema-one.js";

const fixture = fileURLToPath(new URL("../fixtures/postgres-schema-1.sql", import.meta.url));

it("sends the event a schema-1 database left in its outbox, once migrated", async (context) => {
  const receiver = await startReceiver();
  context.onTestFinished(() => receiver.stop());
  const state = await createDatabase(inject("postgresUrl"));
  const row = outboxRow(`${receiver.url}/hook`);
  const client = new pg.Client({ connectionString: state });
  await client.connect();
  try {
    await client.query(readFileSync(fixture, "utf8"));
    await client.query(
      "INSERT INTO public.outbox (webhook_id, url, payload) VALUES ($1, $2, $3)",
      row,
    );
  } finally {
    await client.end();
  }
  const mock = await serveSandbox({ spec: specPath, state });
  context.onTestFinished(() => mock.stop());
  await expectOutboxDelivered(mock.url, row, receiver.waitFor);
});
