// What the rate limit keeps in the store, per partner (the SQL is store/fault-rows.ts, beside the
// rules it is armed with): its setting and its bucket.
import type { StoredRateLimit } from "../faults/index.js";

/** The rate limit's count of one request. */
interface RateToken {
  allowed: boolean;
  /** The theoretical arrival time after this request (µs of sandbox time). */
  tatUs: number;
}

export interface RateLimitRows {
  /** Sets the partner's rate limit (undefined lifts it). */
  setRateLimit(limit: StoredRateLimit | undefined): Promise<void>;
  /** Counts a request against the rate limit at `nowUs`; undefined when the partner has none. */
  takeRateToken(nowUs: number): Promise<RateToken | undefined>;
}
