// On SQLite, a claimed key's row is written once: with its answer when the transaction answers it,
// unanswered when the transaction ends without one (a webhook ping answers after its commit), and
// not at all when the transaction fails or gives the key up.
import { StatementSync } from "node:sqlite";
import { afterEach, expect, it, vi } from "vitest";
import { EXAMPLE_PARTNER_ID } from "../../src/store/partner.js";
import type { SandboxStore } from "../../src/store/store.js";
import { sqliteFiles } from "../support/sqlite-files.js";

afterEach(() => {
  vi.restoreAllMocks();
});

const first = { method: "POST", path: "/customers", fingerprint: "f" };
const answer = { status: 200, body: { id: "made" } };

const open = sqliteFiles("pending-claims");

const inTransaction = <T>(store: SandboxStore, work: Parameters<SandboxStore["transaction"]>[1]) =>
  store.transaction(EXAMPLE_PARTNER_ID, work) as Promise<T>;

/** What a second claim of the key finds. */
const claimAgain = (store: SandboxStore, key: string) =>
  inTransaction(store, (tx) => tx.claimKey(key, first));

it("writes a claim answered in its transaction once, with its answer", async () => {
  const store = await open("answered.db");
  const all = vi.spyOn(StatementSync.prototype, "all");
  await inTransaction(store, async (tx) => {
    expect(await tx.claimKey("k1", first)).toEqual({ claimed: true });
    await tx.answerKey("k1", answer);
  });
  const written = all.mock.contexts.map((statement) => (statement as StatementSync).sourceSQL);
  expect(written.filter((sql) => /^\s*(INSERT INTO|UPDATE) idempotency\b/.test(sql))).toHaveLength(
    1,
  );
  expect(await claimAgain(store, "k1")).toEqual({ claimed: false, first: { ...first, answer } });
});

it("writes a claim left unanswered at its transaction's end, and answers it later", async () => {
  const store = await open("unanswered.db");
  await inTransaction(store, (tx) => tx.claimKey("k2", first));
  expect(await claimAgain(store, "k2")).toEqual({ claimed: false, first: "pending" });
  await inTransaction(store, (tx) => tx.answerKey("k2", answer));
  expect(await claimAgain(store, "k2")).toEqual({ claimed: false, first: { ...first, answer } });
});

it("leaves no claim of a failed transaction, nor of one that gave the key up", async () => {
  const store = await open("undone.db");
  await expect(
    inTransaction(store, async (tx) => {
      await tx.claimKey("k3", first);
      throw new Error("the request failed");
    }),
  ).rejects.toThrow("the request failed");
  expect(await claimAgain(store, "k3")).toEqual({ claimed: true });
  await inTransaction(store, async (tx) => {
    await tx.claimKey("k4", first);
    await tx.releaseKey("k4");
  });
  expect(await claimAgain(store, "k4")).toEqual({ claimed: true });
});

it("keeps a claim to its own transaction: the next one does not write it again", async () => {
  const store = await open("next.db");
  await inTransaction(store, async (tx) => {
    await tx.claimKey("k5", first);
    await tx.answerKey("k5", answer);
  });
  await inTransaction(store, (tx) => tx.releaseKey("k5"));
  expect(await claimAgain(store, "k5")).toEqual({ claimed: false, first: { ...first, answer } });
});
