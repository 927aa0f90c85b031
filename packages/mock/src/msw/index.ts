// @org/payments-mock/msw: the sandbox as MSW handlers, for a front end's tests and its browser.

export type { DeliveryCallback, WebhookDelivery } from "@org/payments-sandbox";
export type {
  DeliveryAttempt,
  EventFilter,
  FaultOptions,
  SandboxClockReading,
  SandboxControls,
  SandboxEvent,
  SandboxFault,
  SandboxPartner,
  SandboxStatus,
} from "@org/payments-sandbox/controls";
export { SandboxControlError } from "@org/payments-sandbox/controls";
export {
  type SandboxHandlers,
  type SandboxHandlersOptions,
  sandboxHandlers,
} from "./sandbox-handlers.js";
