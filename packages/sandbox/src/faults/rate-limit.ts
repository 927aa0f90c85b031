// The rate limit's answers: a 429 beyond it, with Retry-After, and the IETF RateLimit-Policy and
// RateLimit headers (draft-ietf-httpapi-ratelimit-headers) on every answer while it is set. The
// bucket is GCRA on the sandbox clock, kept in the store (rehearsal-rows.ts), so that processes
// sharing a store share it.
import { type Answer, problemAnswer } from "../answer/answer.js";
import type { ArmedRateLimit } from "./armed.js";

const POLICY = '"sandbox"';

/** The headers of an answer while the limit is set, after a request that left the bucket at `tatUs`. */
export function rateLimitHeaders(
  limit: ArmedRateLimit,
  tatUs: number,
  nowUs: number,
): Record<string, string> {
  const windowUs = limit.burst * limit.intervalUs;
  const used = Math.max(0, tatUs - nowUs);
  const remaining = Math.max(0, Math.floor((windowUs - used) / limit.intervalUs));
  return {
    "ratelimit-policy": `${POLICY};q=${limit.burst};w=${Math.max(1, Math.ceil(windowUs / 1e6))}`,
    ratelimit: `${POLICY};r=${remaining};t=${Math.ceil(used / 1e6)}`,
  };
}

/** The answer to a request beyond the limit; nothing it asked is done. */
export function rateLimited(limit: ArmedRateLimit, tatUs: number, nowUs: number): Answer {
  // The request is let through once the bucket has room for one more.
  const waitUs = Math.max(0, tatUs + limit.intervalUs - limit.burst * limit.intervalUs - nowUs);
  const retryAfter = Math.max(1, Math.ceil(waitUs / 1e6));
  const answer = problemAnswer(429, "rate-limited", "Too many requests", [
    {
      location: "route",
      field: "",
      rule: "rate-limit",
      message: `this API key may make ${limit.requestsPerSecond} requests a second (bursts of ${limit.burst}) in the sandbox; retry after ${retryAfter} s, or lift the limit with PUT /_sandbox/rate-limit`,
    },
  ]);
  return {
    ...answer,
    headers: { ...rateLimitHeaders(limit, tatUs, nowUs), "retry-after": String(retryAfter) },
  };
}
