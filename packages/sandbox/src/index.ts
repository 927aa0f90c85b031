// @org/payments-sandbox: the API's offline test mode. createSandbox answers the requests the
// engine has routed and validated; the HTTP glue sends its answers; the typed controls drive a
// running sandbox over HTTP; the data below is what the docs and guides describe it by.
export {
  type DeliveryAttempt,
  type DepositOptions,
  type EventFilter,
  type FaultOptions,
  type FiatAddressOptions,
  newApiKey,
  type QuoteVerdict,
  type RateLimitOptions,
  type ReadinessReport,
  type RequestFilter,
  type RequestLogEntry,
  type SandboxClockReading,
  type SandboxCollection,
  SandboxControlError,
  type SandboxControls,
  type SandboxControlsOptions,
  type SandboxEvent,
  type SandboxFault,
  type SandboxPartner,
  type SandboxRates,
  type SandboxResource,
  type SandboxResourceOf,
  type SandboxStatus,
  type SandboxTopic,
  sandboxControls,
  sandboxPartner,
  type WebhookOptions,
} from "./controls.js";
export {
  type DeliveryCallback,
  type DeliveryChaos,
  DUPLICATE_RATE,
  REORDER_DELAY_SECONDS,
  REORDER_RATE,
  RETRY_DELAYS_SECONDS,
  type WebhookDelivery,
} from "./events/index.js";
export {
  type FetchSandbox,
  type FetchSandboxOptions,
  fetchSandbox,
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
export { DELIVERIES_IN_FLIGHT } from "./lifecycle/scheduler.js";
export { BASE_CURRENCY, CURRENCIES, DEFAULT_RATES, NETWORK_FEES } from "./money/index.js";
export {
  defaultChecklist,
  defaultProfile,
  FORMATS,
  formatReport,
  liveEvidence,
  PROFILE_CONTEXT,
  type Profile,
  ProfileError,
  type ReportFormat,
  readProfile,
  reportOf,
} from "./readiness/index.js";
export { reportFromStore } from "./report-from-store.js";
export { createSandbox, type Sandbox, type SandboxOptions } from "./sandbox.js";
export { partnerIdOf } from "./store/partner.js";
export { StoreFullError } from "./store/store.js";
export { isControlPath, testModeDocument } from "./test-mode/index.js";
