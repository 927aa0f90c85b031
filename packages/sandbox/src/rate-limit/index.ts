// A partner's rate limit, set through the test mode: GCRA on the sandbox clock, its 429 and its
// headers.
// Its typed controls (controls.ts) are the client side, entered directly by src/controls.ts.
export { rateLimitVerdict } from "./rate-limit.js";
export type { RateLimitRows } from "./rate-limit-rows.js";
export { RATE_LIMIT_ROUTES, type RateLimitContext } from "./routes.js";
