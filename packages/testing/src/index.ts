// @org/payments-testing (private): what the workspace's tests share. Requests made from the spec
// (valid ones, variants and fuzzed ones), the small specs some tests serve, a real Postgres for a
// test run, and the machine's Chromium for a browser test.

export { call, newKey } from "./call.ts";
export { helpFlags, synopsisFlags, tableFlags } from "./documented-usage.ts";
export { type EventStreamOptions, openEventStream, type StreamedEvent } from "./event-stream.ts";
export { fixtureSpecPath } from "./fixture-specs.ts";
export { fuzzRequest, fuzzRequests, type WireRequest } from "./fuzz-requests.ts";
export { chromiumPath, launchChromium } from "./launch-chromium.ts";
export { createDatabase, postgresBin, startPostgres, type TestPostgres } from "./postgres.ts";
export { type Delivery, type Reply, startReceiver } from "./receiver.ts";
export {
  fraction,
  type PricingTables,
  type ReferenceInput,
  type ReferencePrice,
  referencePrice,
  referenceRate,
} from "./reference-pricing.ts";
export {
  API_KEY,
  operation,
  operations,
  type SentResponse,
  type SpecRequest,
  send,
  spec,
  specRequests,
  validRequest,
  validVariants,
} from "./spec-requests.ts";
