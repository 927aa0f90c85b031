// A SQLite sandbox's schema comes from the ordered migrations: a new file gets them all, a file
// made by the release before them (the fixture) is migrated in place with one line and keeps its
// data, opening again migrates nothing, and a file from a newer payments-mock is refused untouched.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { specPath } from "@org/payments-spec";
import { afterAll, describe, expect, it } from "vitest";
import { serveSandbox } from "../../src/index.js";
import { dataFromSeed } from "../../src/seed/index.js";
import { EXAMPLE_PARTNER_ID } from "../../src/store/partner.js";
import { MIGRATIONS, SCHEMA_VERSION } from "../../src/store/schema-migrations.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import { expectSchemaOneData, migratedFromSchemaOne } from "../support/schema-one.js";

const fixture = fileURLToPath(new URL("../fixtures/sqlite-schema-1.sql", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "payments-schema-migrations-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const empty = () => dataFromSeed({});

/** Reads the file with a connection of its own. */
function inspect<T>(path: string, read: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const userVersion = (db: DatabaseSync) =>
  Number(db.prepare("PRAGMA user_version").get()?.user_version);

/** The tables and indexes as SQLite keeps them, whitespace aside. */
const schemaOf = (db: DatabaseSync) =>
  db
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
    .all()
    .map((row) => `${row.type} ${row.name}: ${String(row.sql).replace(/\s+/g, " ")}`);

/** A file made by payments-mock with schema 1, as the fixture holds it. */
function schemaOneFile(name: string): string {
  const path = join(dir, name);
  inspect(path, (db) => {
    db.exec(readFileSync(fixture, "utf8"));
    // Its idempotency key was answered now, as far as its 24 hours of retention go.
    db.prepare("UPDATE idempotency SET created_at = ?").run(Date.now());
  });
  return path;
}

describe("a sandbox's SQLite schema", () => {
  it("is numbered 1, 2, … in the order migrations apply", () => {
    expect(MIGRATIONS.map((migration) => migration.version)).toEqual(
      Array.from({ length: SCHEMA_VERSION }, (_, index) => index + 1),
    );
  });

  it("gets every migration in a new file, and no line says it was migrated", async () => {
    const path = join(dir, "new.db");
    const lines: string[] = [];
    await (await openSqliteStore(path, empty, { log: (line) => lines.push(line) })).close();
    expect(inspect(path, userVersion)).toBe(SCHEMA_VERSION);
    expect(inspect(path, schemaOf)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^index resources_scope: .* WHERE sub_partner_id IS NOT NULL$/),
        expect.stringMatching(/^index idempotency_unanswered: .* WHERE answer IS NULL$/),
        expect.stringMatching(/^table resources_search: CREATE VIRTUAL TABLE .* USING fts5/),
      ]),
    );
    expect(lines).toEqual([]);
  });

  it("migrates a file made by schema 1 in place, keeps its data and says so in one line", async () => {
    const path = schemaOneFile("schema-1.db");
    const lines: string[] = [];
    const log = (line: string) => {
      if (line.includes("migrated")) lines.push(line);
    };
    const mock = await serveSandbox({ spec: specPath, state: path, log });
    try {
      expect(lines).toEqual([migratedFromSchemaOne(`sandbox state file ${path}`)]);
      await expectSchemaOneData(mock.url);
    } finally {
      await mock.stop();
    }
    const fresh = join(dir, "fresh-to-compare.db");
    await (await openSqliteStore(fresh, empty)).close();
    expect(inspect(path, schemaOf)).toEqual(inspect(fresh, schemaOf));
    expect(inspect(path, userVersion)).toBe(SCHEMA_VERSION);

    // Opened again, it is current: nothing to migrate, nothing said.
    await (await openSqliteStore(path, empty, { log })).close();
    expect(lines).toHaveLength(1);
  });

  it("migrates a schema-12 file's search index, shared by every partner, to one its searches find their rows in", async () => {
    const path = join(dir, "schema-12.db");
    const other = "9d3c1f6e-2b4a-5c8d-9e1f-0a2b3c4d5e6f";
    const store = await openSqliteStore(path, empty);
    for (const [partner, name] of [
      [EXAMPLE_PARTNER_ID, "Kept Before Marks"],
      [other, "Kept Other"],
    ] as const) {
      await store.transaction(partner, (tx) =>
        tx.insert("customers", { id: crypto.randomUUID(), name }, undefined),
      );
    }
    await store.close();
    // As schema 12 left it: every row's text indexed as it is, with no partner's mark.
    inspect(path, (db) => {
      db.exec("DROP TABLE resources_search");
      db.exec(
        `CREATE VIRTUAL TABLE resources_search USING fts5(search, tokenize = "trigram case_sensitive 1")`,
      );
      db.exec("INSERT INTO resources_search (rowid, search) SELECT seq, search FROM resources");
      db.exec("PRAGMA user_version = 12");
    });
    const lines: string[] = [];
    const migrated = await openSqliteStore(path, empty, { log: (line) => lines.push(line) });
    try {
      expect(lines).toEqual([expect.stringContaining("from schema 12 to 13")]);
      for (const [partner, name] of [
        [EXAMPLE_PARTNER_ID, "Kept Before Marks"],
        [other, "Kept Other"],
      ] as const) {
        const rows = await migrated.transaction(partner, (tx) =>
          tx.list("customers", { search: "kept" }),
        );
        expect(rows.map((row) => row.resource.name)).toEqual([name]);
      }
    } finally {
      await migrated.close();
    }
    expect(inspect(path, userVersion)).toBe(SCHEMA_VERSION);
    expect(inspect(path, (db) => db.prepare("SELECT search FROM resources_search").all())).toEqual([
      { search: expect.stringMatching(/^[\uE000-\uF8FF]{3}[0-9a-f]/) },
      { search: expect.stringMatching(/^[\uE000-\uF8FF]{3}[0-9a-f]/) },
    ]);
  });

  it("refuses a file set up by a newer payments-mock, naming both versions, untouched", async () => {
    const path = join(dir, "newer.db");
    await (await openSqliteStore(path, empty)).close();
    inspect(path, (db) => db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`));
    const before = readFileSync(path);
    await expect(serveSandbox({ spec: specPath, state: path })).rejects.toThrow(
      `The sandbox state file ${path} was set up by a newer payments-mock (schema ${SCHEMA_VERSION + 1}; this one knows up to ${SCHEMA_VERSION}). It was left untouched; upgrade payments-mock.`,
    );
    expect(readFileSync(path)).toEqual(before);
  });
});
