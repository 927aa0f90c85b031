// Webhooks: events queued by a change and delivered on the sandbox clock, at least once, every
// attempt in the partner's event log; their test-mode routes and controls.
// Its typed controls (controls.ts) are the client side, entered directly by src/controls.ts.
export {
  DEFAULT_DELIVERY_LIMITS,
  type DeliveryLimits,
  type WebhookSender,
} from "./deliveries.js";
export type { BroadcastRows } from "./event-rows.js";
export { EventStreams, type EventStreamTiming } from "./event-stream.js";
export {
  type DeliveryChaos,
  DUPLICATE_RATE,
  deliveryOrderKey,
  Events,
  REORDER_DELAY_SECONDS,
  REORDER_RATE,
  RETRY_DELAYS_SECONDS,
} from "./events.js";
export {
  type DeliveryCallback,
  fetchWebhookSender,
  type WebhookDelivery,
} from "./fetch-deliveries.js";
export { DeliverySender } from "./http-deliveries.js";
export { EVENT_ROUTES, type EventContext } from "./routes.js";
