// Fault rules per partner, armed through the test mode: what they do to a request (a status, a
// delay, a drop) and to a webhook delivery, and what a process knows of a partner's armed rules
// and rate limit.
// Its typed controls (controls.ts) are the client side, entered directly by src/controls.ts.
export { ArmedFaults, type ArmedRateLimit } from "./armed-faults.js";
export { type DeliveryFault, deliveryFault } from "./delivery-fault.js";
export type { FaultRows, StoredFault, StoredRateLimit } from "./fault-rows.js";
export { type DeclaredStatuses, declaredStatusesOf } from "./fault-rules.js";
export {
  type FaultHit,
  type FaultKind,
  faultVerdict,
  type RequestFacts,
  type Verdict,
} from "./fault-verdict.js";
export { nthDraw } from "./probability.js";
export { FAULT_ROUTES, type FaultContext } from "./routes.js";
