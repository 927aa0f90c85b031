// @org/payments-testing (private): what the workspace's tests share. Requests made from the spec
// (valid ones, variants and fuzzed ones), the small specs some tests serve, a real Postgres for a
// test run, a sandbox served for a test on its project's store, a webhook receiver, and the
// machine's Chromium for a browser test.

export { call, createCustomer, newKey } from "./call.ts";
export { DEEP_BODIES, expectEveryOperationRefuses } from "./deep-bodies.ts";
export { helpFlags, synopsisFlags, tableFlags } from "./documented-usage.ts";
export { type EventStreamOptions, openEventStream, type StreamedEvent } from "./event-stream.ts";
export { fixtureSpecPath } from "./fixture-specs.ts";
export { fuzzRequest, fuzzRequests, type WireRequest } from "./fuzz-requests.ts";
export { chromiumPath, launchChromium, launchChromiumServer } from "./launch-chromium.ts";
export {
  createDatabase,
  postgresBin,
  removeStaleClusters,
  startPostgres,
  type TestPostgres,
} from "./postgres.ts";
export { rawExchange } from "./raw-exchange.ts";
export {
  callAs,
  driveIntegration,
  type PartnerKey,
  readinessOf,
} from "./readiness-scenario.ts";
export { type Delivery, type Reply, startReceiver } from "./receiver.ts";
export {
  fraction,
  type PricingTables,
  type ReferenceInput,
  type ReferencePrice,
  referencePrice,
  referenceRate,
} from "./reference-pricing.ts";
export { answerChecks, responseProblems, undeclaredAnswer } from "./response-checks.ts";
export {
  API_KEY,
  operation,
  operations,
  REQUEST_TIMEOUT_MS,
  type SentResponse,
  type SpecRequest,
  send,
  spec,
  specRequests,
  validRequest,
  validVariants,
} from "./spec-requests.ts";
export {
  persistentState,
  type SandboxStore,
  sandboxStore,
  startTestSandbox,
  type TestSandbox,
  type TestServer,
} from "./test-sandbox.ts";
