// The sandbox clock: each partner's sandbox time (the time source of every folder below), and its
// test-mode routes and controls.
export { type Clock, elapsedNow, realNow, SandboxClock } from "./clock.js";
export { type ClockControls, clockControls, type SandboxClockReading } from "./controls.js";
export { CLOCK_ROUTES, type ClockContext, type PartnerClockRunner } from "./routes.js";
