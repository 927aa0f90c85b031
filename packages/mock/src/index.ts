export type { Problem, ProblemError, ProblemLocation } from "@org/payments-engine";
export { bundledSpecPath, PROBLEM_CONTENT_TYPE } from "@org/payments-engine";
// The sandbox's typed controls, every one of them: the list is the sandbox's.
export * from "@org/payments-sandbox/controls";
export type {
  Fixture,
  FixtureInput,
  FixtureRun,
  FixtureRunOptions,
  FixtureStep,
  FixtureStepResult,
} from "./fixtures/index.js";
export { checkFixture, FixtureError, runFixture, SandboxUnreachable } from "./fixtures/index.js";
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
