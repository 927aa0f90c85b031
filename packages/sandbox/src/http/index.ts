// The sandbox on the wire: its answers sent, its test-mode requests routed and answered, its
// failures as problems. The mock's handler composes these with the engine.
export { respondControl } from "./respond-control.js";
export { type Sent, sandboxFailure, sendAnswer } from "./send-answer.js";
