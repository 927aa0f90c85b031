export { bundledSpecPath } from "@org/payments-engine/engine/bundled-spec.js";
export type { Problem, ProblemError, ProblemLocation } from "@org/payments-engine/http/problem.js";
export { PROBLEM_CONTENT_TYPE } from "@org/payments-engine/http/problem.js";
export type {
  DeliveryAttempt,
  DepositOptions,
  EventFilter,
  FiatAddressOptions,
  QuoteVerdict,
  ReadinessReport,
  SandboxClockReading,
  SandboxCollection,
  SandboxControls,
  SandboxControlsOptions,
  SandboxEvent,
  SandboxPartner,
  SandboxRates,
  SandboxResource,
  SandboxResourceOf,
  SandboxStatus,
  SandboxTopic,
  WebhookOptions,
} from "@org/payments-sandbox/control/controls.js";
export {
  newApiKey,
  SandboxControlError,
  sandboxControls,
  sandboxPartner,
} from "@org/payments-sandbox/control/controls.js";
export type {
  ProxyOptions,
  RunningProxy,
  ViolationSummary,
} from "./proxy/start-proxy.js";
export { startProxy } from "./proxy/start-proxy.js";
export type { Violation } from "./proxy/violations.js";
export type {
  ConnectionLimits,
  DeliveryChaos,
  MockOptions,
  RunningMock,
  RunningSandbox,
} from "./start-mock.js";
export { startMock } from "./start-mock.js";
