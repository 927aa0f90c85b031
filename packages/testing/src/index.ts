// @org/payments-testing (private): what the workspace's tests share. Requests made from the spec
// (valid ones, variants and fuzzed ones), the small specs some tests serve, a real Postgres for a
// test run, and the machine's Chromium for a browser test.

export { call, newKey } from "./call.js";
export { helpFlags, synopsisFlags, tableFlags } from "./documented-usage.js";
export { fixtureSpecPath } from "./fixture-specs.js";
export { fuzzRequest, fuzzRequests, type WireRequest } from "./fuzz-requests.js";
export { chromiumPath, launchChromium } from "./launch-chromium.js";
export { createDatabase, postgresBin, startPostgres, type TestPostgres } from "./postgres.js";
export { type Delivery, type Reply, startReceiver } from "./receiver.js";
export {
  fraction,
  type PricingTables,
  type ReferenceInput,
  type ReferencePrice,
  referencePrice,
  referenceRate,
} from "./reference-pricing.js";
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
} from "./spec-requests.js";
