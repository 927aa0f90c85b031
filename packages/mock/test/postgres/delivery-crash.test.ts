// Two built CLIs on one Postgres database; one is killed (kill -9) in the middle of a day's
// advance, while it delivers the day's events. The other runs the advance again: every event
// reaches the receiver, and those that reach it twice are at most the deliveries the dead one had
// in flight (16).
import { DELIVERIES_IN_FLIGHT } from "@org/payments-sandbox";
import { createDatabase } from "@org/payments-testing";
import { expect, inject, it } from "vitest";
import {
  advance,
  countingReceiver,
  DAY_SECONDS,
  loggedEvents,
  prepareDay,
} from "../support/day-of-deliveries.js";
import { runCli } from "../support/run-cli.js";

const KEY = `delivery-crash-${crypto.randomUUID()}`;

it("sends again after a replica's kill -9 mid-advance at most the deliveries it had in flight", async (context) => {
  const { receiver, received, duplicates, missing } = await countingReceiver(context);
  const state = await createDatabase(inject("postgresUrl"));
  const start = () => runCli(context, ["--port", "0", "--quiet", "--stateful", "--state", state]);
  const killed = start();
  const survivor = start();
  const urls = [await killed.url, await survivor.url];
  await prepareDay(urls, KEY, receiver.url, 150);

  const before = received();
  const cut = advance(urls[0] as string, KEY, DAY_SECONDS).then(
    () => "answered",
    () => "cut",
  );
  // Killed once the day's deliveries are under way.
  await receiver.waitFor(before + 60, 60_000);
  killed.child.kill("SIGKILL");
  await killed.exited;
  expect(await cut).toBe("cut");

  // The survivor runs what the dead one had not finished (its held deliveries once their hold lapses).
  const rest = await advance(urls[1] as string, KEY, DAY_SECONDS);
  expect(rest.ran).toBeGreaterThan(0);
  const events = await loggedEvents(urls[1] as string, KEY);
  expect(events.length).toBeGreaterThan(before + 60);
  await expect.poll(() => missing(events), { timeout: 30_000 }).toEqual([]);
  context.annotate(`sent twice: ${duplicates()} of ${received()} deliveries`);
  expect(duplicates()).toBeLessThanOrEqual(DELIVERIES_IN_FLIGHT);
}, 180_000);
