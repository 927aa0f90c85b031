// A list filtered by sub-partner, customer or external id reads its own index, which holds only
// the rows that have that column: a resource without it writes no entry there.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, expect, it } from "vitest";
import { dataFromSeed } from "../../src/seed/index.js";
import { EXAMPLE_PARTNER_ID } from "../../src/store/partner.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";

const dir = mkdtempSync(join(tmpdir(), "payments-filter-indexes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Sandbox data with nothing in it. */
const empty = () => dataFromSeed({});

/** The page of a filtered list and the newest by external id, as sql-store.ts reads them. */
const reads = {
  resources_scope:
    "SELECT seq, id, body FROM resources WHERE partner = ?5 AND collection = ?1 AND sub_partner_id = ?2 AND seq >= ?3 ORDER BY seq LIMIT ?4",
  resources_customer:
    "SELECT seq, id, body FROM resources WHERE partner = ?5 AND collection = ?1 AND customer_id = ?2 AND seq >= ?3 ORDER BY seq LIMIT ?4",
  resources_external:
    "SELECT seq, id, body FROM resources WHERE partner = ?3 AND collection = ?1 AND external_id = ?2 ORDER BY seq DESC LIMIT 1",
};

it("reads each filter through its index, which holds only the rows that have the column", async () => {
  const path = join(dir, "sandbox.db");
  const store = await openSqliteStore(path, empty);
  await store.transaction(EXAMPLE_PARTNER_ID, async (tx) => {
    await tx.insert("customers", { id: "plain", email: "a@example.com" }, undefined);
    await tx.insert("customers", { id: "scoped", email: "b@example.com" }, "sub-partner");
    await tx.insert("customers", { id: "external", external_id: "ext-1" }, undefined);
    await tx.insert("autoramps", { id: "ramp" }, undefined, "plain");
  });
  await store.close();
  const db = new DatabaseSync(path);
  try {
    for (const [index, sql] of Object.entries(reads)) {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(
          ...(sql.includes("?4")
            ? ["customers", "x", 0, 10, EXAMPLE_PARTNER_ID]
            : ["customers", "x", EXAMPLE_PARTNER_ID]),
        )
        .map((row) => String(row.detail));
      expect(plan.join("\n"), index).toMatch(new RegExp(`^SEARCH resources USING INDEX ${index} `));
    }
    // ANALYZE counts each index's entries: the first number of its sqlite_stat1 row.
    db.exec("ANALYZE");
    const entries = (index: string) =>
      Number.parseInt(
        String(db.prepare("SELECT stat FROM sqlite_stat1 WHERE idx = ?").get(index)?.stat),
        10,
      );
    expect(entries("resources_order")).toBe(4);
    expect(entries("resources_scope")).toBe(1);
    expect(entries("resources_external")).toBe(1);
    expect(entries("resources_customer")).toBe(1);
  } finally {
    db.close();
  }
});
