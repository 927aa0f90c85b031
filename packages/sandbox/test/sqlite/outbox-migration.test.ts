// A SQLite file made before test mode, with an event still in its outbox: migrated, the sandbox
// sends it.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { specPath } from "@org/payments-spec";
import { startReceiver } from "@org/payments-testing";
import { afterAll, it } from "vitest";
import { serveSandbox } from "../../src/index.js";
import { expectOutboxDelivered, outboxRow } from "../support/outbox-of-schema-one.js";

const fixture = fileURLToPath(new URL("../fixtures/sqlite-schema-1.sql", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "payments-outbox-migration-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("sends the event a schema-1 file left in its outbox, once migrated", async (context) => {
  const receiver = await startReceiver();
  context.onTestFinished(() => receiver.stop());
  const path = join(dir, "schema-1.db");
  const row = outboxRow(`${receiver.url}/hook`);
  const db = new DatabaseSync(path);
  db.exec(readFileSync(fixture, "utf8"));
  db.prepare("INSERT INTO outbox (webhook_id, url, payload) VALUES (?, ?, ?)").run(...row);
  db.close();
  const mock = await serveSandbox({ spec: specPath, state: path });
  context.onTestFinished(() => mock.stop());
  await expectOutboxDelivered(mock.url, row, receiver.waitFor);
});
