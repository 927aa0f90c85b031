// The rate limit's part of the typed controls.
import { type ControlsClient, dataOf, type Schemas } from "../test-mode/client.js";

/** A rate limit: `requests_per_second` (null lifts it) and `burst`. */
export type RateLimitOptions = Schemas["RateLimit"];

export interface RateLimitControls {
  /** Limits this partner's requests a second (`requests_per_second: null` lifts the limit). */
  setRateLimit(limit: RateLimitOptions): Promise<Schemas["RateLimitSetting"]>;
}

export function rateLimitControls(client: ControlsClient): RateLimitControls {
  return {
    setRateLimit: (limit) => dataOf("PUT", client.PUT("/_sandbox/rate-limit", { body: limit })),
  };
}
