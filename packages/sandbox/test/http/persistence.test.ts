import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { specPath } from "@org/payments-spec";
import { call, createCustomer, newKey, persistentState, sandboxStore } from "@org/payments-testing";
import { afterAll, describe, expect, it } from "vitest";
import { serveSandbox } from "../../src/index.js";
import { startSandbox } from "../support/sandbox.js";

const dir = mkdtempSync(join(tmpdir(), "payments-sandbox-persist-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the sandbox's persisted state", () => {
  it("keeps creates, webhook changes and idempotency keys across a restart", async () => {
    const state = await persistentState(dir, "restart.db");
    const first = await startSandbox({ state });
    const key = newKey();
    const customer = await createCustomer(first.url, { name: "Persisted" }, key);
    const webhook = await call(
      first.url,
      "PATCH",
      "/webhooks/f3a7c1e5-9b4d-4f2a-8c6e-1a3b5d7f9e02",
      {
        body: { label: "Renamed" },
      },
    );
    expect(webhook.status).toBe(200);
    await first.stop();
    // SQLite folds its write-ahead log back into the file on a clean stop.
    if (sandboxStore() !== "postgres") expect(readdirSync(dir)).toEqual(["restart.db"]);

    const second = await startSandbox({ state });
    try {
      const listed = await call(second.url, "GET", "/customers?page_size=100");
      expect(listed.body.items).toContainEqual(customer);
      const webhooks = await call(second.url, "GET", "/webhooks");
      expect(webhooks.body.items[0].label).toBe("Renamed");
      const replay = await call(second.url, "POST", "/customers", {
        body: { customer_type: "Person", email: "someone@example.com", name: "Persisted" },
        headers: key,
      });
      expect(replay.body).toEqual(customer);
    } finally {
      await second.stop();
    }
  });

  it("starts from the seed when the store is empty, and creates it", async () => {
    const state = await persistentState(dir, "fresh.db");
    const sandbox = await startSandbox({ state });
    try {
      if (sandboxStore() !== "postgres") expect(existsSync(state)).toBe(true);
      const listed = await call(sandbox.url, "GET", "/customers");
      expect(listed.body.items.map((c: { id: string }) => c.id)).toEqual([
        "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
      ]);
    } finally {
      await sandbox.stop();
    }
  });

  it.each([
    ["not JSON", "{ half a file", /not valid JSON/],
    ["JSON but not sandbox state", JSON.stringify({ customers: [] }), /"format" is not/],
  ])(
    "refuses a file that is %s, naming it and leaving it untouched",
    async (_, content, reason) => {
      const state = join(dir, `corrupt-${content.length}.json`);
      writeFileSync(state, content);
      const started = serveSandbox({ spec: specPath, state });
      await expect(started).rejects.toThrow(state);
      await expect(started).rejects.toThrow(reason);
      expect(readFileSync(state, "utf8")).toBe(content);
    },
  );

  it("reset brings the data back to the seed", async () => {
    const sandbox = await startSandbox({ state: await persistentState(dir, "reset.db") });
    try {
      await createCustomer(sandbox.url);
      const reset = await call(sandbox.url, "POST", "/_sandbox/reset");
      expect(reset.status).toBe(200);
      const listed = await call(sandbox.url, "GET", "/customers");
      expect(listed.body.items).toHaveLength(1);
    } finally {
      await sandbox.stop();
    }
  });

  it("refuses a seed with an unknown collection, naming it", async () => {
    await expect(serveSandbox({ spec: specPath, seed: { clients: [] } })).rejects.toThrow(
      /unknown collection "clients"/,
    );
  });
});
