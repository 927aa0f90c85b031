// Each process of a Postgres sandbox numbers a partner's request-log batch as the newest plus one
// (store/request-log-rows.ts). Two processes that take the same number at once: the one that
// commits second fails on the unique (partner, n), its batch is put back and tried again, and the
// log ends with each request once, under ids of their own.
import pg from "pg";
import { expect, it } from "vitest";
import { page } from "../../src/json/pages.js";
import { appendToLog, FinishedRequests } from "../../src/request-log/index.js";
import { batchText } from "../../src/store/request-log-batch.js";
import type { SandboxStore } from "../../src/store/store.js";
import { finishedRequest as request } from "../support/failing-store.js";
import { newStore, untilWaitingForLock } from "../support/postgres-store.js";

const PARTNER = "7b9d1f3a-5c7e-4a9b-8d1f-3a5c7e9b1d3f";

/** The partner's log, newest first: each entry's id and idempotency key. */
async function logged(store: SandboxStore) {
  const read = await store.transaction(PARTNER, (tx) =>
    page(tx.requestLog({}), { page_size: "100" }),
  );
  if (read.kind !== "page") throw new Error("the log's first page was refused");
  return read.items.map((text) => {
    const entry = JSON.parse(text);
    return { id: String(entry.id), key: String(entry.idempotency_key) };
  });
}

it("tries a batch again whose number another process took meanwhile: each request logged once", async (context) => {
  const { url, store } = await newStore(context);
  // The other process: its batch takes number 1 and is not committed yet.
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  context.onTestFinished(() => other.end());
  await other.query("BEGIN");
  await other.query("INSERT INTO request_log (partner, n, entries, body) VALUES ($1, 1, 1, $2)", [
    PARTNER,
    batchText([request(1)]),
  ]);

  const finished = new FinishedRequests(store, [appendToLog]);
  try {
    finished.add(PARTNER, request(2));
    const firstTry = finished.flush();
    // This process's batch took number 1 too, and waits for the other's to commit or not.
    await untilWaitingForLock(other, "INSERT INTO request_log%");
    await other.query("COMMIT");
    await firstTry;
    await expect
      .poll(async () => (await logged(store)).map((entry) => entry.key))
      .toEqual(["key-2", "key-1"]);
    const ids = (await logged(store)).map((entry) => entry.id);
    expect(new Set(ids).size).toBe(2);
  } finally {
    await finished.close();
  }
});
