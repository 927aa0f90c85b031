// Retention, on each store: idempotency keys are kept 24 hours, the event log its newest 10,000.

import { afterEach, describe, expect, it, vi } from "vitest";
import { EXAMPLE_PARTNER_ID } from "../../src/store/partner.js";
import type { DeliveryEvent } from "../../src/store/sandbox-data.js";
import { EVENTS_KEPT, KEY_RETENTION_MS } from "../../src/store/store.js";
import { openEmptyStore } from "../support/store-projects.js";

afterEach(() => vi.useRealTimers());

const first = { method: "POST", path: "/customers", fingerprint: "f" };

describe("sandbox retention", () => {
  it("keeps an idempotency key for 24 hours, then forgets it", async () => {
    const store = await openEmptyStore();
    vi.useFakeTimers({ toFake: ["Date"] });
    const claim = () =>
      store.transaction(EXAMPLE_PARTNER_ID, async (tx) => {
        const taken = await tx.claimKey("key-1", first);
        if (taken.claimed) await tx.answerKey("key-1", { status: 200, body: { id: "x" } });
        return taken;
      });
    expect(await claim()).toEqual({ claimed: true });
    vi.setSystemTime(Date.now() + KEY_RETENTION_MS - 60_000);
    expect(await claim()).toMatchObject({
      claimed: false,
      first: { answer: { body: { id: "x" } } },
    });
    vi.setSystemTime(Date.now() + 120_000);
    expect(await claim()).toEqual({ claimed: true });
  });

  it("keeps the newest 10,000 events", async () => {
    const store = await openEmptyStore();
    const event = (index: number): DeliveryEvent => ({
      id: `event-${index}`,
      topic: "Ping",
      webhook_id: "w",
      url: "http://127.0.0.1:9/",
      created_at: new Date().toISOString(),
      delivered: true,
      status_code: 204,
      payload: {},
    });
    await store.transaction(EXAMPLE_PARTNER_ID, async (tx) => {
      for (let index = 0; index < EVENTS_KEPT + 25; index++) await tx.recordEvent(event(index));
    });
    const kept = await store.transaction(EXAMPLE_PARTNER_ID, (tx) => tx.events());
    expect(kept).toHaveLength(EVENTS_KEPT);
    expect(kept[0]?.id).toBe(`event-${EVENTS_KEPT + 24}`);
    expect(kept.at(-1)?.id).toBe("event-25");
  });
});
