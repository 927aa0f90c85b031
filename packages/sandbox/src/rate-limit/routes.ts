// The rate limit's test-mode route: PUT /_sandbox/rate-limit sets it, or lifts it.
import { ok } from "../answers/answer.js";
import type { ArmedFaults, FaultRows } from "../faults/index.js";
import type { components } from "../generated/test-mode.js";
import type { Routes, Transactions } from "../test-mode/index.js";
import type { RateLimitRows } from "./rate-limit-rows.js";

/** What the rate limit's route is handed, for the caller's partner. */
export interface RateLimitContext {
  store: Transactions<RateLimitRows & FaultRows>;
  /** The partner's armed rules and rate limit, as this process knows them. */
  faults: ArmedFaults;
}

export const RATE_LIMIT_ROUTES: Routes<RateLimitContext> = {
  setRateLimit: ({ store, faults }, { body }) =>
    store.transaction(async (tx) => {
      const { requests_per_second: perSecond, burst } = body as components["schemas"]["RateLimit"];
      if (perSecond === null) {
        await tx.setRateLimit(undefined);
        await faults.reload(tx);
        return ok({ requests_per_second: null, burst: null });
      }
      const setting = { requests_per_second: perSecond, burst: burst ?? perSecond };
      await tx.setRateLimit({
        rule: JSON.stringify(setting),
        intervalUs: Math.round(1e6 / perSecond),
        burst: setting.burst,
      });
      await faults.reload(tx);
      return ok(setting);
    }),
};
