// An in-memory sandbox holds at most 1 GiB (SQLite's memdb). A change past that fails with an
// error that says what to do (the mock answers it with a 507 problem); the data already there
// stays readable, and a reset makes room again.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { dataFromSeed } from "../../src/seed/index.js";
import { EXAMPLE_PARTNER_ID } from "../../src/store/partner.js";
import { openSqliteStore } from "../../src/store/sqlite-store.js";
import { StoreFullError } from "../../src/store/store.js";

/** Sandbox data with nothing in it. */
const empty = () => dataFromSeed({});

const customer = () => ({ id: randomUUID(), email: `${randomUUID()}@example.com` });

it("refuses a change past its limit with a StoreFullError, keeps what it has, and has room after a reset", async () => {
  const store = await openSqliteStore(undefined, empty, { memoryLimitBytes: 256 * 1024 });
  try {
    let failure: unknown;
    let stored = 0;
    while (failure === undefined && stored < 10_000) {
      await store
        .transaction(EXAMPLE_PARTNER_ID, (tx) => tx.insert("customers", customer(), undefined))
        .then(
          () => stored++,
          (error: unknown) => (failure = error),
        );
    }
    expect(failure).toBeInstanceOf(StoreFullError);
    // The limit it names is the one the store was opened with.
    expect((failure as Error).message).toMatch(
      /in-memory sandbox is full: it holds at most 256 KiB, every key's data together\./,
    );
    // A reset frees the caller's data only: the message does not promise more.
    expect((failure as Error).message).toContain("empties this key's data only");
    expect((failure as Error).message).toContain("POST /_sandbox/reset");
    expect((failure as Error).message).toContain("--state <file>");
    expect(stored).toBeGreaterThan(100);
    expect(await store.transaction(EXAMPLE_PARTNER_ID, (tx) => tx.list("customers"))).toHaveLength(
      stored,
    );

    await store.transaction(EXAMPLE_PARTNER_ID, (tx) => tx.replaceAll(empty()));
    await store.transaction(EXAMPLE_PARTNER_ID, (tx) =>
      tx.insert("customers", customer(), undefined),
    );
    expect(await store.transaction(EXAMPLE_PARTNER_ID, (tx) => tx.list("customers"))).toHaveLength(
      1,
    );
  } finally {
    await store.close();
  }
});
