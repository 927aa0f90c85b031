// Claims purge old keys (at most once a second): the purge must read only the keys it removes,
// through indexes, or it would read every key older than a minute. A schema-1 database made
// before the index gets it. Between purges, a key past its time is still claimed anew.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { dataFromSeed } from "../../src/seed/index.js";
import { EXAMPLE_PARTNER_ID } from "../../src/store/partner.js";
import { PURGE_KEYS } from "../../src/store/sql-store.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import { KEY_RETENTION_MS, type SandboxStore } from "../../src/store/store.js";

const dir = mkdtempSync(join(tmpdir(), "payments-key-purge-"));
const schemaOneFixture = fileURLToPath(new URL("../fixtures/sqlite-schema-1.sql", import.meta.url));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.useRealTimers());

/** Sandbox data with nothing in it. */
const empty = () => dataFromSeed({});

function purgePlan(path: string): string[] {
  const db = new DatabaseSync(path);
  try {
    const sql = `EXPLAIN QUERY PLAN ${PURGE_KEYS.replace(/\$(\d)/g, "?$1")}`;
    return db
      .prepare(sql)
      .all(0, 0, "partner")
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
  expect(plan).toContain(
    "SEARCH idempotency USING INDEX idempotency_unanswered (partner=? AND created_at<?)",
  );
});

it("adds the index of unanswered claims to a schema-1 database made without it", async () => {
  const path = join(dir, "older.db");
  const older = new DatabaseSync(path);
  older.exec(readFileSync(schemaOneFixture, "utf8"));
  older.exec("DROP INDEX IF EXISTS idempotency_unanswered");
  const indexes = older
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'idempotency'")
    .all()
    .map((row) => String(row.name));
  expect(indexes).not.toContain("idempotency_unanswered");
  older.close();
  await (await openSqliteStore(path, empty)).close();
  expect(purgePlan(path)).toContain(
    "SEARCH idempotency USING INDEX idempotency_unanswered (partner=? AND created_at<?)",
  );
});

const first = { method: "POST", path: "/customers", fingerprint: "f" };

/** Claims `key` as `partner` and, when it was free, answers it with `id`. */
function claim(store: SandboxStore, key: string, id = key, partner = EXAMPLE_PARTNER_ID) {
  return store.transaction(partner, async (tx) => {
    const taken = await tx.claimKey(key, first);
    if (taken.claimed) await tx.answerKey(key, { status: 200, body: { id } });
    return taken;
  });
}

/** The keys in the database file, read by a connection of its own. */
function storedKeys(path: string): string[] {
  const db = new DatabaseSync(path);
  try {
    return db
      .prepare("SELECT idem_key FROM idempotency ORDER BY idem_key, partner")
      .all()
      .map((row) => String(row.idem_key));
  } finally {
    db.close();
  }
}

it("removes the keys past their retention at a later claim", async () => {
  const path = join(dir, "purged.db");
  const store = await openSqliteStore(path, empty);
  try {
    vi.useFakeTimers({ toFake: ["Date"] });
    await claim(store, "old");
    await claim(store, "recent");
    vi.setSystemTime(Date.now() + KEY_RETENTION_MS + 60_000);
    await claim(store, "later");
    expect(storedKeys(path)).toEqual(["later"]);
  } finally {
    await store.close();
  }
});

it("purges the claiming partner's old keys only, so that no key's write does another's upkeep", async () => {
  const path = join(dir, "partners.db");
  const store = await openSqliteStore(path, empty);
  const other = "9d3c1f6e-2b4a-5c8d-9e1f-0a2b3c4d5e6f";
  try {
    vi.useFakeTimers({ toFake: ["Date"] });
    await claim(store, "old-of-a");
    await claim(store, "old-of-b", "old-of-b", other);
    vi.setSystemTime(Date.now() + KEY_RETENTION_MS + 60_000);
    await claim(store, "new-of-b", "new-of-b", other);
    expect(storedKeys(path)).toEqual(["new-of-b", "old-of-a"]);
    vi.setSystemTime(Date.now() + 2_000);
    await claim(store, "new-of-a");
    expect(storedKeys(path)).toEqual(["new-of-a", "new-of-b"]);
  } finally {
    await store.close();
  }
});

it("purges a partner's old keys when it is next seen, should it claim no more", async () => {
  const path = join(dir, "seen.db");
  const store = await openSqliteStore(path, empty);
  try {
    vi.useFakeTimers({ toFake: ["Date"] });
    await claim(store, "old");
    vi.setSystemTime(Date.now() + KEY_RETENTION_MS + 60_000);
    await store.transaction(EXAMPLE_PARTNER_ID, (tx) => tx.enter(Date.now()));
    expect(storedKeys(path)).toEqual([]);
  } finally {
    await store.close();
  }
});

it("claims anew a key past its retention that no purge has removed yet", async () => {
  const path = join(dir, "unpurged.db");
  const store = await openSqliteStore(path, empty);
  try {
    vi.useFakeTimers({ toFake: ["Date"] });
    // This claim purges; the clock stands still, so the next ones do not.
    await claim(store, "first");
    const writer = new DatabaseSync(path);
    const insert = writer.prepare(
      `INSERT INTO idempotency (partner, idem_key, method, path, fingerprint, answer, created_at) VALUES ('${EXAMPLE_PARTNER_ID}', ?, ?, ?, ?, ?, ?)`,
    );
    const answered = '{"status":200,"body":{"id":"before"}}';
    insert.run("expired", "POST", "/customers", "f", answered, Date.now() - KEY_RETENTION_MS - 1);
    insert.run("abandoned", "POST", "/customers", "f", null, Date.now() - 61_000);
    writer.close();
    expect(await claim(store, "expired", "after")).toEqual({ claimed: true });
    expect(await claim(store, "abandoned")).toEqual({ claimed: true });
    expect(await claim(store, "expired")).toEqual({
      claimed: false,
      first: { ...first, answer: { status: 200, body: { id: "after" } } },
    });
    expect(storedKeys(path)).toEqual(["abandoned", "expired", "first"]);
  } finally {
    await store.close();
  }
});
