// The typed sandbox controls, as serveSandbox (and the mock's startMock({ stateful: true })) return
// them; the opt-in delivery mode that duplicates and reorders. (sandboxControls(url) for a sandbox
// in another process: packages/mock/test/stateful-cli.test.ts.)

import { setTimeout as delay } from "node:timers/promises";
import { call, newKey, type Reply, startReceiver } from "@org/payments-testing";
import type { WebhookTopic } from "@org/payments-types";
import { afterEach, expect, expectTypeOf, it } from "vitest";
import {
  type RunningSandboxServer,
  SandboxControlError,
  type SandboxServerOptions,
  type SandboxTopic,
} from "../../src/index.js";
import { startSandbox } from "../support/sandbox.js";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandbox(options: Partial<SandboxServerOptions> = {}): Promise<RunningSandboxServer> {
  const started = await startSandbox(options);
  cleanups.push(() => started.stop());
  return started.server;
}

async function receiver(reply?: Reply) {
  const started = await startReceiver(reply);
  cleanups.push(() => started.stop());
  return started;
}

it("names the API's webhook topics", () => {
  expectTypeOf<SandboxTopic>().toEqualTypeOf<WebhookTopic>();
});

it("drives the clock, the simulations and the event log of an in-process sandbox", async () => {
  const mock = await sandbox();
  const hook = await receiver();
  const webhook = await mock.addWebhook({
    url: `${hook.url}/hook`,
    topics: ["CustomerCreated", "CustomerStatus"],
  });
  const created = await call(mock.url, "POST", "/customers", {
    body: { customer_type: "Person", email: "helpers@example.com" },
    headers: newKey(),
  });
  const customer = created.body;
  const active = await mock.setStatus("customers", customer.id, "Active");
  expect(active).toMatchObject({ id: customer.id, status: "Active" });
  await hook.waitFor(3);
  expect(hook.deliveries.map((delivery) => delivery.body.topic)).toEqual([
    "CustomerCreated",
    "CustomerStatus",
    "CustomerStatus",
  ]);
  const before = await mock.clock();
  const after = await mock.advanceClock({ seconds: 3600 });
  expect(Date.parse(after.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(3_600_000);
  await mock.advanceClock({ to: new Date(Date.parse(after.now) + 60_000) });
  const address = await mock.addFiatAddress(customer.id, { iban: "NL91ABNA0417164300" });
  expect(address).toMatchObject({ status: "AuthorizationRequired", country: "NL" });
  // The seed's webhook has attempts of its own.
  const events = (await mock.events()).filter((event) => event.webhook_id === webhook.id);
  expect(events[0]).toMatchObject({ topic: "CustomerStatus", delivered: true, attempt: 1 });
  const again = await mock.redeliver(events[0]?.id ?? "");
  expect(again).toMatchObject({ id: events[0]?.id, attempt: 2, delivered: true });
  const refused = await mock.setStatus("customers", customer.id, "UserRequired").catch((e) => e);
  expect(refused).toBeInstanceOf(SandboxControlError);
  expect(refused).toMatchObject({
    status: 422,
    body: { current: "Active", requested: "UserRequired" },
  });
  await mock.reset();
  expect(await mock.events()).toEqual([]);
});

/**
 * Sends 40 status changes through a chaotic sandbox; resolves to, for each event in the order it
 * was queued, how many times it arrived and whether a later event arrived before it.
 */
async function chaoticRun(seed: number) {
  const mock = await sandbox({ deliveryChaos: { seed } });
  const hook = await receiver();
  await mock.addWebhook({ url: `${hook.url}/hook`, topics: ["CustomerStatus"] });
  const created = await call(mock.url, "POST", "/customers", {
    body: { customer_type: "Person", email: "chaos@example.com" },
    headers: newKey(),
  });
  for (let index = 0; index < 20; index++) {
    for (const status of ["Active", "Suspended"] as const) {
      await mock.setStatus("customers", created.body.id, status, { force: true });
      // Two changes apart by a millisecond at least: their updated_at orders them below.
      await delay(2);
    }
  }
  // A delay is 5 s of sandbox time: the clock moves past all of them.
  await mock.advanceClock({ seconds: 60 });
  const arrived = hook.deliveries.map((delivery) => delivery.body);
  const queued = [...new Map(arrived.map((event) => [event.id, event])).values()].sort(
    (a, b) => Date.parse(a.data.updated_at) - Date.parse(b.data.updated_at),
  );
  const firstArrival = (id: string) => arrived.findIndex((event) => event.id === id);
  return queued.map((event, index) => ({
    times: arrived.filter((other) => other.id === event.id).length,
    overtaken: queued
      .slice(index + 1)
      .some((later) => firstArrival(later.id) < firstArrival(event.id)),
  }));
}

it("duplicates and reorders deliveries in its opt-in mode, the same way for the same seed", async () => {
  const first = await chaoticRun(7);
  expect(first).toHaveLength(40);
  expect(await chaoticRun(7)).toEqual(first);
  expect(first.some((event) => event.times === 2)).toBe(true);
  expect(first.some((event) => event.overtaken)).toBe(true);
  // Without the mode, each event arrives once, in order.
  const plain = await sandbox();
  const hook = await receiver();
  await plain.addWebhook({ url: `${hook.url}/hook`, topics: ["CustomerStatus"] });
  for (const status of ["Suspended", "Active", "Suspended"] as const) {
    await plain.setStatus("customers", "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f", status);
  }
  const statuses = (await hook.waitFor(3)).map((delivery) => delivery.body.data.status);
  expect(statuses).toEqual(["Suspended", "Active", "Suspended"]);
});
