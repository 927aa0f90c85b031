// A built CLI on Postgres killed (kill -9) right upon the last of 200 answered creates: the
// request log and the readiness counts, read through another process, hold every one of them.
import { createDatabase } from "@org/payments-testing";
import { expect, inject, it } from "vitest";
import { keptAfterKill } from "../support/answered-requests.js";
import { runCli } from "../support/run-cli.js";

it("keeps every answered create in the request log and the readiness counts after kill -9", async (context) => {
  const state = await createDatabase(inject("postgresUrl"));
  const start = () => runCli(context, ["--port", "0", "--quiet", "--stateful", "--state", state]);
  const kept = await keptAfterKill(start, `crash-log-${crypto.randomUUID()}`, 200);
  expect(kept.logged).toBe(200);
  expect(kept.counted).toBe(200);
}, 120_000);
