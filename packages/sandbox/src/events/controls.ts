// The webhooks' part of the typed controls.
import {
  type ControlsClient,
  dataOf,
  everyItem,
  type FiltersOf,
  idParam,
  type Schemas,
} from "../test-mode/client.js";

/** A webhook topic, as the API names it. */
export type SandboxTopic = Schemas["WebhookTopic"];

/** A webhook event as the sandbox sends it. */
export type SandboxEvent = Schemas["WebhookEvent"];

/** One attempt to deliver an event, as GET /_sandbox/events lists them (newest first). */
export type DeliveryAttempt = Schemas["DeliveryAttempt"];

/** A webhook: `url` and `topics`, and optionally `label` and `enabled`. */
export type WebhookOptions = Schemas["NewWebhook"];

/** Which attempts `events()` lists: every field given must match. */
export type EventFilter = FiltersOf<"/_sandbox/events">;

export interface EventControls {
  /** Adds a webhook of the partner. */
  addWebhook(options: WebhookOptions): Promise<Schemas["Webhook"]>;
  /** Every delivery attempt recorded that matches the filter (all of it), newest first. */
  events(filter?: EventFilter): Promise<DeliveryAttempt[]>;
  /** Sends the event again now; resolves to the attempt. */
  redeliver(eventId: string): Promise<DeliveryAttempt>;
}

export function eventControls(client: ControlsClient): EventControls {
  return {
    addWebhook: (options) => dataOf("POST", client.POST("/_sandbox/webhooks", { body: options })),
    events: (filter = {}) =>
      everyItem((page) =>
        dataOf(
          "GET",
          client.GET("/_sandbox/events", { params: { query: { ...filter, ...page } } }),
        ),
      ),
    redeliver: (eventId) =>
      dataOf("POST", client.POST("/_sandbox/events/{id}/redeliver", idParam(eventId))),
  };
}
