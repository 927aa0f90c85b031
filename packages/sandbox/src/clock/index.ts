// The sandbox clock: each partner's sandbox time (the time source of every folder below), and its
// test-mode routes and controls.
// Its typed controls (controls.ts) are the client side, entered directly by src/controls.ts.
export { type Clock, elapsedNow, realNow, SandboxClock } from "./clock.js";
export { nextTurn } from "./next-turn.js";
export { CLOCK_ROUTES, type ClockContext, type PartnerClockRunner } from "./routes.js";
