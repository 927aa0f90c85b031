// The rate limit's verdict on a request, decided at the start of its transaction before any fault
// rule: a 429 beyond it, with Retry-After, and the IETF RateLimit-Policy and RateLimit headers
// (draft-ietf-httpapi-ratelimit-headers) on every answer while it is set. The bucket is GCRA on
// the sandbox clock, kept in the store (store/fault-rows.ts), so that processes sharing a store
// share it.
import { type Answer, problemAnswer } from "../answers/answer.js";
import type { ArmedFaults, ArmedRateLimit, FaultRows, Verdict } from "../faults/index.js";
import type { RateLimitRows } from "./rate-limit-rows.js";

const POLICY = '"sandbox"';

/**
 * What the partner's rate limit does to a request at `nowMs` (sandbox time): a 429 instead, or its
 * headers on the answer; nothing when no limit is set.
 */
export async function rateLimitVerdict(
  tx: RateLimitRows & FaultRows,
  armed: ArmedFaults,
  nowMs: number,
): Promise<Verdict> {
  const limit = armed.rateLimit;
  if (limit === undefined) return {};
  const nowUs = nowMs * 1000;
  const taken = await tx.takeRateToken(nowUs);
  if (taken === undefined) {
    // Lifted by another process.
    await armed.reload(tx);
    return {};
  }
  if (!taken.allowed) {
    return {
      answer: rateLimited(limit, taken.tatUs, nowUs),
      hit: { faultId: null, kind: "rate_limit" },
    };
  }
  return { headers: rateLimitHeaders(limit, taken.tatUs, nowUs) };
}

/** The headers of an answer while the limit is set, after a request that left the bucket at `tatUs`. */
function rateLimitHeaders(
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
function rateLimited(limit: ArmedRateLimit, tatUs: number, nowUs: number): Answer {
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
