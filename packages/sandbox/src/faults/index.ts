// Failure rehearsal: fault rules and a rate limit per partner, armed through the test mode.
export { ArmedFaults } from "./armed.js";
export { type FaultHit, faultsBefore, type Verdict } from "./before.js";
export { type DeliveryFault, deliveryFault } from "./delivery.js";
export { nthDraw } from "./draw.js";
export {
  armedRuleOf,
  type DeclaredStatuses,
  type FaultRule,
  listedFault,
  ruleRefusal,
} from "./rules.js";
