// Every claim purges old keys: it must read only the keys it removes, through indexes, or each
// claim would read every key older than a minute. A database made before the index gets it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, expect, it } from "vitest";
import { PURGE_KEYS } from "../../src/sandbox/sql-store.js";
import { openSqliteStore } from "../../src/sandbox/sqlite-store.js";
import { COLLECTIONS, type SandboxData } from "../../src/sandbox/state.js";

const dir = mkdtempSync(join(tmpdir(), "payments-key-purge-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const empty = (): SandboxData => ({
  collections: Object.fromEntries(COLLECTIONS.map((name) => [name, []])) as never,
  idempotency: {},
  events: [],
});

function purgePlan(path: string): string[] {
  const db = new DatabaseSync(path);
  try {
    const sql = `EXPLAIN QUERY PLAN ${PURGE_KEYS.replace(/\$(\d)/g, "?$1")}`;
    return db
      .prepare(sql)
      .all(0, 0)
      .map((row) => String(row.detail));
  } finally {
    db.close();
  }
}

it("purges keys through the age index and the index of unanswered claims", async () => {
  const path = join(dir, "fresh.db");
  await (await openSqliteStore(path, empty)).close();
  const plan = purgePlan(path);
  expect(plan.filter((step) => step.startsWith("SCAN"))).toEqual([]);
  expect(plan).toContain("SEARCH idempotency USING INDEX idempotency_unanswered (created_at<?)");
});

it("adds the index of unanswered claims to a database made without it", async () => {
  const path = join(dir, "older.db");
  await (await openSqliteStore(path, empty)).close();
  const older = new DatabaseSync(path);
  older.exec("DROP INDEX idempotency_unanswered");
  older.close();
  expect(purgePlan(path)).not.toContain(
    "SEARCH idempotency USING INDEX idempotency_unanswered (created_at<?)",
  );
  await (await openSqliteStore(path, empty)).close();
  expect(purgePlan(path)).toContain(
    "SEARCH idempotency USING INDEX idempotency_unanswered (created_at<?)",
  );
});
