// What @org/payments-mock/msw exports besides sandboxHandlers, the same in Node and in a browser:
// the types of the handlers' options and of the controls they return.
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
export type { SandboxHandlers, SandboxHandlersOptions } from "./sandbox-handlers.js";
