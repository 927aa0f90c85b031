// A SQLite sandbox counts each partner's request-log batches in its process (BatchNumbers): a
// process that opens the file again reads on from the newest number, also after a reset, which
// keeps it in a batch of no entries. So a cursor taken before goes on to the entries after.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { page } from "../../src/json/pages.js";
import type { KeptRequest } from "../../src/request-log/index.js";
import { dataFromSeed } from "../../src/seed/index.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import type { SandboxStore } from "../../src/store/store.js";

const PARTNER = "3e5a7c9d-1b2f-4d6e-8a0c-4e6a8c0e2f4b";

const entry = (n: number): KeptRequest => ({
  at: 1_800_000_000_000 + n,
  method: "GET",
  path: "/customers",
  operation_id: "listCustomers",
  status: 200,
  duration_ms: 1,
  idempotency_key: null,
  replayed: false,
  fault_id: null,
  fault: null,
  request_id: `request-${n}`,
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function newestId(store: SandboxStore): Promise<bigint | undefined> {
  const read = await store.transaction(PARTNER, (tx) =>
    page(tx.requestLog({}), { page_size: "1" }),
  );
  if (read.kind !== "page") throw new Error("the log's first page was refused");
  const [first] = read.items;
  return first === undefined ? undefined : BigInt(JSON.parse(first).id);
}

it("numbers a partner's batches on from the file's newest, also after a reset and a restart", async () => {
  const dir = mkdtempSync(join(tmpdir(), "payments-sandbox-log-numbers-"));
  dirs.push(dir);
  const file = join(dir, "state.db");
  const empty = () => dataFromSeed({});
  const first = await openSqliteStore(file, empty);
  for (const n of [1, 2, 3])
    await first.transaction(PARTNER, (tx) => tx.appendRequests([entry(n)]));
  const before = await newestId(first);
  await first.transaction(PARTNER, (tx) => tx.replaceAll(empty()));
  await first.close();

  const second = await openSqliteStore(file, empty);
  try {
    expect(await newestId(second)).toBeUndefined();
    await second.transaction(PARTNER, (tx) => tx.appendRequests([entry(4)]));
    const after = await newestId(second);
    expect(before).toBeDefined();
    expect(after).toBeGreaterThan(before as bigint);
  } finally {
    await second.close();
  }
});
