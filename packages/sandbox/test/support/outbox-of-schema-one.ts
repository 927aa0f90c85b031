// An event that payments-mock before test mode queued in its outbox and had not sent when it
// stopped: migration 3 makes it a scheduled delivery, sent once the migrated sandbox runs.

import type { Delivery } from "@org/payments-testing";
import { call } from "@org/payments-testing";
import { expect } from "vitest";
import { EXAMPLE_KEY } from "./schema-one.js";

/** The schema-1 fixtures' webhook. */
const FIXTURE_WEBHOOK = "f3a7c1e5-9b4d-4f2a-8c6e-1a3b5d7f9e02";

/** An outbox row's values (webhook_id, url, payload) for an event to `url`. */
export function outboxRow(url: string): [string, string, string] {
  const payload = {
    id: crypto.randomUUID(),
    topic: "CustomerStatus",
    created_at: "2026-03-06T08:30:00.000Z",
    customer_id: "b27167ac-242c-40ed-bff4-57e5149df99b",
    data: { id: "b27167ac-242c-40ed-bff4-57e5149df99b", status: "Active" },
  };
  return [FIXTURE_WEBHOOK, url, JSON.stringify(payload)];
}

/** The outbox's event arrived, once, with its id, and its attempt is in the event log. */
export async function expectOutboxDelivered(
  sandboxUrl: string,
  row: [string, string, string],
  waitFor: (count: number) => Promise<Delivery[]>,
): Promise<void> {
  const sent = JSON.parse(row[2]);
  const [delivery] = await waitFor(1);
  expect(delivery?.body).toEqual(sent);
  await expect
    .poll(
      async () =>
        (await call(sandboxUrl, "GET", "/_sandbox/events", { headers: EXAMPLE_KEY })).body.items[0],
    )
    .toMatchObject({ id: sent.id, attempt: 1, delivered: true });
}
