// The webhooks' test-mode routes: a webhook added (the API cannot add one), the event log read,
// an event redelivered.

import { quoted } from "@org/payments-engine";
import type { Webhook } from "@org/payments-types";
import { notFound, ok } from "../answers/answer.js";
import { pageAnswer } from "../answers/page-answer.js";
import type { Clock } from "../clock/index.js";
import type { components } from "../generated/test-mode.js";
import { page } from "../json/pages.js";
import { newResourceId } from "../store/resource-id.js";
import type { CommittedReads, Routes, Transactions } from "../test-mode/index.js";
import { type EventQuery, eventPage } from "./event-log.js";
import type { EventLogReads, EventRows } from "./event-rows.js";
import { type EventStreams, eventStream } from "./event-stream.js";
import type { Events } from "./events.js";
import { recordReceipts } from "./receipts.js";

/** What the webhooks' routes are handed, for the caller's partner. */
export interface EventContext {
  partner: string;
  store: Transactions<EventRows> & CommittedReads<EventLogReads>;
  clock: Clock;
  events: Events;
  streams: EventStreams;
}

export const EVENT_ROUTES: Routes<EventContext> = {
  addWebhook: ({ partner, store, clock }, { body }) =>
    store.transaction((tx) =>
      addWebhook(tx, partner, clock, body as components["schemas"]["NewWebhook"]),
    ),
  listEvents: ({ store }, { query }) =>
    store.transaction((tx) => eventPage(tx, query as EventQuery)),
  listEventLog: ({ store }, { query }) =>
    store.transaction(async (tx) => {
      const { topic, customer_id, cursor, page_size } = query;
      return pageAnswer(await page(tx.eventLogPage({ topic, customer_id }), { cursor, page_size }));
    }),
  streamEvents: async ({ partner, store, streams }, { query, headers }) => {
    // A reconnecting EventSource sends the last id it got; it wins over the URL it reuses.
    const after = headers["last-event-id"] ?? query.after;
    const topics = query.topics === undefined ? [] : query.topics.split(",");
    return {
      status: 200,
      body: undefined,
      stream: await eventStream(partner, store, streams, {
        after: after === undefined ? undefined : Number(after),
        topics,
      }),
    };
  },
  recordReceipts: ({ store }, { body }) =>
    store.transaction(async (tx) =>
      ok(await recordReceipts(tx, (body as components["schemas"]["Receipts"]).receipts)),
    ),
  redeliverEvent: async ({ events }, { params }) => {
    const id = params.id ?? "";
    const attempt = await events.redeliver(id);
    return attempt === undefined
      ? notFound("path", "id", `no webhook event ${quoted(id)} of a webhook that exists`)
      : ok(attempt);
  },
};

/**
 * POST /_sandbox/webhooks: adds a webhook of the partner. Its writable fields are the Webhook
 * schema's: `url` and `topics` required, `label` (default "") and `enabled` (default true).
 */
async function addWebhook(
  tx: EventRows,
  partner: string,
  clock: Clock,
  fields: components["schemas"]["NewWebhook"],
) {
  const time = clock.now();
  const at = time.toISOString();
  const webhook: Webhook = {
    id: newResourceId(time.getTime()),
    partner_id: partner,
    created_at: at,
    updated_at: at,
    enabled: fields.enabled ?? true,
    label: fields.label ?? "",
    topics: fields.topics,
    url: fields.url,
  };
  await tx.insert("webhooks", webhook, undefined);
  return ok(webhook);
}
