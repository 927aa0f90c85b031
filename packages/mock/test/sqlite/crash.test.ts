// The built CLI on a SQLite file: after kill -9 in the middle of a burst of creates, a restart
// has every create that was acknowledged, and an idempotency key still replays; after kill -9
// right upon the last of 200 answered creates, the request log and the readiness counts hold
// every one of them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, createCustomer, newKey } from "@org/payments-testing";
import { afterAll, expect, it } from "vitest";
import { keptAfterKill } from "../support/answered-requests.js";
import { runCli } from "../support/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "payments-sandbox-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("loses no acknowledged create to kill -9, and replays keys after the restart", async (context) => {
  const state = join(dir, "crash.db");
  const start = () => runCli(context, ["--port", "0", "--quiet", "--stateful", "--state", state]);
  const first = start();
  const url = await first.url;
  const key = newKey();
  const keyed = await createCustomer(url, { name: "Keyed" }, key);
  const acknowledged: string[] = [];
  const burst = (async () => {
    for (let index = 0; index < 500; index++) {
      try {
        acknowledged.push((await createCustomer(url, { name: `Burst ${index}` })).id);
      } catch {
        return;
      }
    }
  })();
  await expect.poll(() => acknowledged.length, { interval: 5 }).toBeGreaterThanOrEqual(30);
  first.child.kill("SIGKILL");
  await burst;

  const second = start();
  const again = await second.url;
  const listed = new Set<string>();
  let cursor: string | undefined;
  do {
    const query = cursor === undefined ? "" : `&cursor=${cursor}`;
    const page = await call(again, "GET", `/customers?page_size=100${query}`);
    for (const item of page.body.items) listed.add(item.id);
    cursor = page.body.cursor;
  } while (cursor !== undefined);
  expect([...acknowledged, keyed.id].filter((id) => !listed.has(id))).toEqual([]);
  const replay = await call(again, "POST", "/customers", {
    body: { customer_type: "Person", email: "someone@example.com", name: "Keyed" },
    headers: key,
  });
  expect(replay.body).toEqual(keyed);
}, 120_000);

it("keeps every answered create in the request log and the readiness counts after kill -9", async (context) => {
  const state = join(dir, "answered.db");
  const start = () => runCli(context, ["--port", "0", "--quiet", "--stateful", "--state", state]);
  const kept = await keptAfterKill(start, `crash-log-${crypto.randomUUID()}`, 200);
  expect(kept.logged).toBe(200);
  expect(kept.counted).toBe(200);
}, 120_000);
