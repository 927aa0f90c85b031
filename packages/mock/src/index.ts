export { bundledSpecPath } from "./engine/bundled-spec.js";
export type { Problem, ProblemError, ProblemLocation } from "./http/problem.js";
export { PROBLEM_CONTENT_TYPE } from "./http/problem.js";
export type {
  ProxyOptions,
  RunningProxy,
  ViolationSummary,
} from "./proxy/start-proxy.js";
export { startProxy } from "./proxy/start-proxy.js";
export type { Violation } from "./proxy/violations.js";
export type {
  DeliveryAttempt,
  DepositOptions,
  EventFilter,
  FiatAddressOptions,
  QuoteVerdict,
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
} from "./sandbox/controls.js";
export {
  newApiKey,
  SandboxControlError,
  sandboxControls,
  sandboxPartner,
} from "./sandbox/controls.js";
export type {
  ConnectionLimits,
  DeliveryChaos,
  MockOptions,
  RunningMock,
  RunningSandbox,
} from "./start-mock.js";
export { startMock } from "./start-mock.js";
