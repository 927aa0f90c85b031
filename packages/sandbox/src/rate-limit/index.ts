// A partner's rate limit, set through the test mode: GCRA on the sandbox clock, its 429 and its
// headers.
export { type RateLimitControls, type RateLimitOptions, rateLimitControls } from "./controls.js";
export { rateLimitVerdict } from "./rate-limit.js";
export type { RateLimitRows } from "./rate-limit-rows.js";
export { RATE_LIMIT_ROUTES, type RateLimitContext } from "./routes.js";
