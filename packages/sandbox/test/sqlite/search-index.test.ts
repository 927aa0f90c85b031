// The search index is written when a search reads it: every search sees every row with its
// current text, whether it was created or changed before or after the search before it, in
// memory and in a file (which is left fully indexed when it closes).

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

it("leaves a file indexed up to its last row when it closes", async () => {
  const path = join(dir, "closed.db");
  const store = await openSqliteStore(path, empty);
  await store.transaction(EXAMPLE_PARTNER_ID, async (tx) => {
    await tx.insert("customers", customer("a", "Ada"), undefined);
    await tx.insert("customers", customer("b", "Bob"), undefined);
  });
  await store.close();
  const db = new DatabaseSync(path);
  const indexed = db.prepare("SELECT rowid FROM resources_search ORDER BY rowid").all();
  const rows = db.prepare("SELECT seq FROM resources ORDER BY seq").all();
  db.close();
  expect(indexed.map((row) => row.rowid)).toEqual(rows.map((row) => row.seq));
});
