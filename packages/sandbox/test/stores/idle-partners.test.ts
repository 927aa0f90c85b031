// Idle partners, on each store: purged with all their data once unused for the idle time.
import { describe, expect, it } from "vitest";
import { realNow } from "../../src/clock/clock.js";
import { newApiKey } from "../../src/controls.js";
import { partnerIdOf } from "../../src/store/partner.js";
import { openEmptyStore } from "../support/store-projects.js";

describe("idle partners", () => {
  it("are purged with all their data once unused for the idle time; the others stay", async () => {
    const store = await openEmptyStore();
    const day = 24 * 60 * 60 * 1000;
    const now = realNow();
    const [idle, active] = [partnerIdOf(newApiKey()), partnerIdOf(newApiKey())];
    for (const [partner, seenAt] of [
      [idle, now - 31 * day],
      [active, now - day],
    ] as const) {
      await store.transaction(partner, async (tx) => {
        await tx.enter(seenAt);
        await tx.insert("customers", { id: `customer-of-${partner}` }, undefined);
        await tx.schedule({ dueAt: now, kind: "step", subject: partner, body: {} });
        await tx.setSetting("rates", "{}");
      });
    }
    expect(await store.purgeIdle(now - 30 * day)).toEqual([idle]);
    const left = (partner: string) =>
      store.transaction(partner, async (tx) => ({
        customers: (await tx.list("customers")).length,
        due: await tx.hasDue(now),
        rates: await tx.setting("rates"),
        made: (await tx.enter(now)).created,
      }));
    expect(await left(idle)).toEqual({ customers: 0, due: false, rates: undefined, made: true });
    expect(await left(active)).toEqual({ customers: 1, due: true, rates: "{}", made: false });
  });
});
