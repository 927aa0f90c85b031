// Webhooks: events queued by a change and delivered on the sandbox clock, at least once, every
// attempt in the partner's event log; their test-mode routes and controls.
export {
  type DeliveryAttempt,
  type EventControls,
  type EventFilter,
  eventControls,
  type SandboxEvent,
  type SandboxTopic,
  type WebhookOptions,
} from "./controls.js";
export { DEFAULT_DELIVERY_LIMITS, type DeliveryLimits, DeliverySender } from "./deliveries.js";
export {
  type DeliveryChaos,
  DUPLICATE_RATE,
  deliveryOrderKey,
  Events,
  REORDER_DELAY_SECONDS,
  REORDER_RATE,
  RETRY_DELAYS_SECONDS,
} from "./events.js";
export { EVENT_ROUTES, type EventContext } from "./routes.js";
