// A built CLI on Postgres killed (kill -9) right upon the last of 200 answered creates: the
// request log and the readiness counts, read through another process, hold every one of them.
import { createDatabase } from "@org/payments-testing";
import { expect, inject, it } from "vitest";
import { answeredCreates, countedCreates, loggedCreates } from "../support/answered-requests.js";
import { runCli } from "../support/run-cli.js";

it("keeps every answered create in the request log and the readiness counts after kill -9", async (context) => {
  const state = await createDatabase(inject("postgresUrl"));
  const start = () => runCli(context, ["--port", "0", "--quiet", "--stateful", "--state", state]);
  const apiKey = `crash-log-${crypto.randomUUID()}`;
  const first = start();
  await answeredCreates(await first.url, apiKey, 200);
  first.child.kill("SIGKILL");
  await first.exited;

  const again = await start().url;
  expect(await loggedCreates(again, apiKey)).toBe(200);
  expect(await countedCreates(again, apiKey)).toBe(200);
}, 120_000);
