// The search index is written when a search reads it: every search sees every row with its
// current text, whether it was created or changed before or after the search before it, in
// memory and in a file. A partner's search indexes and reads its own rows only, so that its time
// does not grow with another partner's rows that hold the term.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { dataFromSeed } from "../../src/seed/index.js";
import { EXAMPLE_PARTNER_ID } from "../../src/store/partner.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import type { SandboxStore } from "../../src/store/store.js";

const dir = mkdtempSync(join(tmpdir(), "payments-search-index-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Sandbox data with nothing in it. */
const empty = () => dataFromSeed({});

const customer = (id: string, name: string) => ({ id, name, email: `${id}@example.com` });

async function found(store: SandboxStore, search: string): Promise<string[]> {
  const rows = await store.transaction(EXAMPLE_PARTNER_ID, (tx) =>
    tx.list("customers", { search }),
  );
  return rows.map((row) => String(row.resource.name));
}

describe.each([
  ["in memory", undefined],
  ["in a file", "search.db"],
])("the search index %s", (_, file) => {
  it("finds rows created and changed before and after earlier searches", async () => {
    const store = await openSqliteStore(file && join(dir, file), empty);
    await store.transaction(EXAMPLE_PARTNER_ID, (tx) =>
      tx.insert("customers", customer("a", "Ada Early"), undefined),
    );
    expect(await found(store, "early")).toEqual(["Ada Early"]);
    await store.transaction(EXAMPLE_PARTNER_ID, async (tx) => {
      await tx.insert("customers", customer("b", "Bob Later"), undefined);
      await tx.update("customers", customer("a", "Ada Renamed"));
      await tx.insert("customers", customer("c", "Cy Later"), undefined);
      await tx.update("customers", customer("c", "Cy Changed"));
    });
    expect(await found(store, "early")).toEqual([]);
    expect(await found(store, "renamed")).toEqual(["Ada Renamed"]);
    expect(await found(store, "later")).toEqual(["Bob Later"]);
    expect(await found(store, "changed")).toEqual(["Cy Changed"]);
    await store.close();
  });
});

it("indexes and reads the searching partner's rows only, each partner's behind a mark of its own", async () => {
  const path = join(dir, "partners.db");
  const store = await openSqliteStore(path, empty);
  const other = "9d3c1f6e-2b4a-5c8d-9e1f-0a2b3c4d5e6f";
  await store.transaction(other, async (tx) => {
    for (const id of ["a1", "a2", "a3"]) {
      await tx.insert("customers", customer(id, `Zeta Other ${id}`), undefined);
    }
  });
  await store.transaction(EXAMPLE_PARTNER_ID, (tx) =>
    tx.insert("customers", customer("b1", "Zeta Own"), undefined),
  );
  const indexedRows = () =>
    inspect(path, (db) =>
      db
        .prepare(
          "SELECT r.partner, s.search FROM resources_search s JOIN resources r ON r.seq = s.rowid ORDER BY s.rowid",
        )
        .all()
        .map((row) => ({ partner: String(row.partner), search: String(row.search) })),
    );
  // The search indexes the caller's rows, not the other partner's that hold the term too.
  expect(await found(store, "zeta")).toEqual(["Zeta Own"]);
  expect(indexedRows().map((row) => row.partner)).toEqual([EXAMPLE_PARTNER_ID]);
  const others = await store.transaction(other, (tx) => tx.list("customers", { search: "zeta" }));
  expect(others.map((row) => row.resource.name)).toEqual([
    "Zeta Other a1",
    "Zeta Other a2",
    "Zeta Other a3",
  ]);
  // Each partner's text starts with its own mark, which a search's pattern starts with.
  const marks = new Map<string, Set<string>>();
  for (const row of indexedRows()) {
    marks.set(row.partner, (marks.get(row.partner) ?? new Set()).add(row.search.slice(0, 3)));
    expect(row.search).toMatch(/^[\uE000-\uF8FF]{3}[a-z0-9]/);
  }
  expect([...marks.values()].map((set) => set.size)).toEqual([1, 1]);
  expect(marks.get(other)).not.toEqual(marks.get(EXAMPLE_PARTNER_ID));
  expect(await found(store, "zeta")).toEqual(["Zeta Own"]);
  await store.close();
});

/** Reads the file with a connection of its own. */
function inspect<T>(path: string, read: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(path);
  try {
    return read(db);
  } finally {
    db.close();
  }
}
