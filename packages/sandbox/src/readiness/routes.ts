// The readiness report's test-mode route: GET /_sandbox/readiness, every finished request counted.
import { ok } from "../answers/answer.js";
import type { PendingRequests } from "../request-log/index.js";
import type { Routes, Transactions } from "../test-mode/index.js";
import type { Profile } from "./profile.js";
import type { ReportRows } from "./readiness-rows.js";
import { readinessReport } from "./report.js";

/** What the readiness route is handed, for the caller's partner. */
export interface ReadinessContext {
  partner: string;
  store: Transactions<ReportRows>;
  /** The finished requests waiting to be counted; undefined when none are. */
  pending: PendingRequests | undefined;
  profile: Profile;
}

export const READINESS_ROUTES: Routes<ReadinessContext> = {
  getReadiness: async ({ partner, store, pending, profile }) => {
    // Requests that cannot be written now stay queued; the report shows what is written.
    await pending?.flush(partner);
    return ok(await store.transaction((tx) => readinessReport(tx, partner, profile)));
  },
};
