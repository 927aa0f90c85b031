// A collection a read found empty is not read again until something is inserted there or a
// transaction fails, and that knowledge never hides a row: not one inserted since, not one a
// failed transaction's rollback brought back, not another partner's.
import { StatementSync } from "node:sqlite";
import { afterEach, expect, it, vi } from "vitest";
import { dataFromSeed } from "../../src/seed/index.js";
import { EXAMPLE_PARTNER_ID } from "../../src/store/partner.js";
import type { SandboxStore } from "../../src/store/store.js";
import { sqliteFiles } from "../support/sqlite-files.js";

afterEach(() => {
  vi.restoreAllMocks();
});

const OTHER_PARTNER = "5d1c0a7e-2b9f-4c3d-8e6a-1f0b2c3d4e5f";

const open = sqliteFiles("empty-collections");

const webhook = (id: string) => ({ id, url: "https://example.com/hook", enabled: true });

const webhookIds = (store: SandboxStore, partner = EXAMPLE_PARTNER_ID) =>
  store.transaction(partner, async (tx) =>
    (await tx.list("webhooks")).map((stored) => stored.resource.id),
  );

const addWebhook = (store: SandboxStore, id: string, partner = EXAMPLE_PARTNER_ID) =>
  store.transaction(partner, (tx) => tx.insert("webhooks", webhook(id), undefined));

/** How many statements a read of the partner's webhooks sends. */
async function statementsOfRead(store: SandboxStore): Promise<number> {
  const all = vi.spyOn(StatementSync.prototype, "all");
  await webhookIds(store);
  const sent = all.mock.calls.length;
  all.mockRestore();
  return sent;
}

it("reads an empty collection once, then again only after an insert, which it finds", async () => {
  const store = await open("insert.db");
  expect(await webhookIds(store)).toEqual([]);
  expect(await statementsOfRead(store)).toBe(0);
  await addWebhook(store, "hook-1");
  expect(await statementsOfRead(store)).toBe(1);
  expect(await webhookIds(store)).toEqual(["hook-1"]);
});

it("finds what an insert earlier in the same transaction added", async () => {
  const store = await open("same-transaction.db");
  expect(await webhookIds(store)).toEqual([]);
  const found = await store.transaction(EXAMPLE_PARTNER_ID, async (tx) => {
    await tx.insert("webhooks", webhook("hook-in-tx"), undefined);
    return (await tx.list("webhooks")).map((stored) => stored.resource.id);
  });
  expect(found).toEqual(["hook-in-tx"]);
});

it("finds the rows a failed transaction's rollback brought back", async () => {
  const store = await open("rollback.db");
  await addWebhook(store, "hook-kept");
  const empty = dataFromSeed({});
  await expect(
    store.transaction(EXAMPLE_PARTNER_ID, async (tx) => {
      await tx.replaceAll(empty);
      expect(await tx.list("webhooks")).toEqual([]);
      throw new Error("the request failed");
    }),
  ).rejects.toThrow("the request failed");
  expect(await webhookIds(store)).toEqual(["hook-kept"]);
});

it("knows each partner's collections apart", async () => {
  const store = await open("partners.db");
  await store.transaction(OTHER_PARTNER, (tx) => tx.enter(Date.now()));
  expect(await webhookIds(store)).toEqual([]);
  expect(await webhookIds(store, OTHER_PARTNER)).toEqual([]);
  await addWebhook(store, "hook-of-other", OTHER_PARTNER);
  expect(await webhookIds(store, OTHER_PARTNER)).toEqual(["hook-of-other"]);
  expect(await webhookIds(store)).toEqual([]);
  expect(await statementsOfRead(store)).toBe(0);
});

it("reads a filtered list every time", async () => {
  const store = await open("filtered.db");
  const customers = () =>
    store.transaction(EXAMPLE_PARTNER_ID, (tx) => tx.list("customers", { scope: "sub-1" }));
  expect(await customers()).toEqual([]);
  const all = vi.spyOn(StatementSync.prototype, "all");
  expect(await customers()).toEqual([]);
  expect(all).toHaveBeenCalled();
});
