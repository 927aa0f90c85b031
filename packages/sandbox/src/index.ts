// @org/payments-sandbox: the API's offline test mode. createSandbox answers the requests the
// engine has routed and validated; the HTTP glue sends its answers; the typed controls drive a
// running sandbox over HTTP; the data below is what the docs and guides describe it by.
export type { SandboxClockReading } from "./clock/index.js";
export {
  newApiKey,
  type SandboxControls,
  type SandboxControlsOptions,
  type SandboxPartner,
  sandboxControls,
  sandboxPartner,
} from "./controls.js";
export {
  type DeliveryAttempt,
  type DeliveryChaos,
  DUPLICATE_RATE,
  type EventFilter,
  REORDER_DELAY_SECONDS,
  REORDER_RATE,
  RETRY_DELAYS_SECONDS,
  type SandboxEvent,
  type SandboxTopic,
  type WebhookOptions,
} from "./events/index.js";
export type { FaultOptions, SandboxFault } from "./faults/index.js";
export {
  type PrismAnswer,
  type RefusedRoute,
  type RunningSandboxServer,
  respondSandbox,
  type SandboxRouting,
  type SandboxServerOptions,
  type Sent,
  sandboxFailure,
  sentStatus,
  serveSandbox,
} from "./http/index.js";
export {
  AUTORAMP,
  IDENTIFICATION_REVIEW,
  LIFECYCLES,
  type Lifecycle,
  TRANSACTION_SETTLEMENT,
  TRANSACTION_STATES,
  type Transition,
} from "./lifecycle/lifecycles.js";
export {
  BASE_CURRENCY,
  CURRENCIES,
  DEFAULT_RATES,
  NETWORK_FEES,
  type QuoteVerdict,
  type SandboxRates,
} from "./money/index.js";
export type { RateLimitOptions } from "./rate-limit/index.js";
export {
  defaultChecklist,
  defaultProfile,
  FORMATS,
  formatReport,
  liveEvidence,
  PROFILE_CONTEXT,
  type Profile,
  ProfileError,
  type ReadinessReport,
  type ReportFormat,
  readProfile,
  reportOf,
} from "./readiness/index.js";
export { reportFromStore } from "./report-from-store.js";
export type { RequestFilter, RequestLogEntry } from "./request-log/index.js";
export { createSandbox, type Sandbox, type SandboxOptions } from "./sandbox.js";
export type {
  DepositOptions,
  FiatAddressOptions,
  SandboxCollection,
  SandboxResource,
  SandboxResourceOf,
  SandboxStatus,
} from "./simulations/index.js";
export { partnerIdOf } from "./store/partner.js";
export { StoreFullError } from "./store/store.js";
export { isControlPath, SandboxControlError, testModeDocument } from "./test-mode/index.js";
