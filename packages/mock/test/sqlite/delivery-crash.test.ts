// The built CLI on a SQLite file, killed (kill -9) in the middle of a day's advance while it
// delivers the day's events, then started again on the file: the advance run again delivers every
// event, and those that reach the receiver twice are at most the deliveries that were in flight
// at the kill (16).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DELIVERIES_IN_FLIGHT } from "@org/payments-sandbox";
import { afterAll, expect, it } from "vitest";
import {
  advance,
  countingReceiver,
  DAY_SECONDS,
  loggedEvents,
  prepareDay,
} from "../support/day-of-deliveries.js";
import { runCli } from "../support/run-cli.js";

const KEY = `delivery-crash-${crypto.randomUUID()}`;

const dir = mkdtempSync(join(tmpdir(), "payments-delivery-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("sends again after kill -9 mid-advance at most the deliveries in flight", async (context) => {
  const { receiver, received, duplicates, missing } = await countingReceiver(context);
  const state = join(dir, "sandbox.db");
  const start = () => runCli(context, ["--port", "0", "--quiet", "--stateful", "--state", state]);
  const killed = start();
  const url = await killed.url;
  await prepareDay([url], KEY, receiver.url, 150);

  const before = received();
  const cut = advance(url, KEY, DAY_SECONDS).then(
    () => "answered",
    () => "cut",
  );
  // Killed once the day's deliveries are under way.
  await receiver.waitFor(before + 60, 60_000);
  killed.child.kill("SIGKILL");
  await killed.exited;
  expect(await cut).toBe("cut");

  const again = await start().url;
  const rest = await advance(again, KEY, DAY_SECONDS);
  expect(rest.ran).toBeGreaterThan(0);
  const events = await loggedEvents(again, KEY);
  expect(events.length).toBeGreaterThan(before + 60);
  await expect.poll(() => missing(events), { timeout: 30_000 }).toEqual([]);
  context.annotate(`sent twice: ${duplicates()} of ${received()} deliveries`);
  expect(duplicates()).toBeLessThanOrEqual(DELIVERIES_IN_FLIGHT);
}, 180_000);
