// A Postgres sandbox's processes share its event log: a process is told of the events another
// committed, so that its event streams carry them at once; a lost listening connection is
// opened again only while a stream listens.

import { EventEmitter } from "node:events";
import { createDatabase } from "@org/payments-testing";
import type { Client } from "pg";
import { afterAll, expect, inject, it, vi } from "vitest";
import { dataFromSeed } from "../../src/seed/index.js";
import { EventNotifications } from "../../src/store/event-notifications.js";
import { openStore } from "../../src/store/open-store.js";
import type { SandboxStore } from "../../src/store/store.js";

const stores: SandboxStore[] = [];
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
});

const PARTNER = "4c6e8a0b-2d4f-4a6c-8e0b-2d4f6a8c0e1b";

async function open(state: string) {
  const store = await openStore(
    state,
    () => dataFromSeed({}),
    () => {},
  );
  stores.push(store);
  return store;
}

it("tells a process of the events another process committed to the same database", async () => {
  const state = await createDatabase(inject("postgresUrl"));
  const [one, two] = [await open(state), await open(state)];
  await one.transaction(PARTNER, (tx) => tx.enter(Date.now()));
  const told: Array<string | undefined> = [];
  const stop = two.onEventsCommitted((partner) => told.push(partner));
  // The LISTEN connection opens in the background: commits go on until one is heard.
  for (let n = 1; !told.includes(PARTNER) && n < 400; n++) {
    await one.transaction(PARTNER, async (tx) =>
      tx.appendEvent({ id: `event-${n}`, topic: "Ping", customerId: null, body: "{}" }),
    );
    await new Promise((wake) => setTimeout(wake, 25));
  }
  expect(told).toContain(PARTNER);
  stop();
});

it("opens no listening connection again once no stream listens, after one was lost", async () => {
  vi.useFakeTimers();
  try {
    const clients: FakeClient[] = [];
    const notifications = new EventNotifications(() => {
      const client = new FakeClient();
      clients.push(client);
      return client as unknown as Client;
    });
    const unlisten = notifications.listen(() => {});
    await vi.advanceTimersByTimeAsync(0);
    expect(clients).toHaveLength(1);
    // The connection is lost; a new one is due a second later, but the last stream goes first.
    clients[0]?.emit("error", new Error("connection lost"));
    unlisten();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(clients).toHaveLength(1);
    await notifications.close();
  } finally {
    vi.useRealTimers();
  }
});

/** A pg client that connects and listens at once, and is told when it is lost. */
class FakeClient extends EventEmitter {
  connect = async () => {};
  query = async () => ({ rows: [] });
  end = async () => {};
}
