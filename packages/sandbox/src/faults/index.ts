// Failure rehearsal: fault rules and a rate limit per partner, armed through the test mode.
export { ArmedFaults } from "./armed.js";
export { type FaultHit, faultsBefore, type Verdict } from "./before.js";
export { FAULT_HANDLERS } from "./fault-routes.js";
export type { DeclaredStatuses } from "./rules.js";
