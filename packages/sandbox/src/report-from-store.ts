// A readiness report read straight from a sandbox's store, for `payments-mock readiness --state`:
// the SQLite file or the Postgres database a sandbox keeps, which it may be using meanwhile.
import { type Profile, type ReadinessReport, readinessReport } from "./readiness/index.js";
import { openExistingStore } from "./store/existing-store.js";
import { partnerIdOf } from "./store/partner.js";

/**
 * The report of the partner of `apiKey` in the store at `state`; `exampleKey` as the sandbox was
 * given it. A file that is not there, or not yet a database, is refused: nothing is made.
 */
export async function reportFromStore(
  state: string,
  apiKey: string,
  profile: Profile,
  exampleKey?: string,
): Promise<ReadinessReport> {
  const store = await openExistingStore(state);
  try {
    const partner = partnerIdOf(apiKey, exampleKey);
    return await store.transaction(partner, (tx) => readinessReport(tx, partner, profile));
  } finally {
    await store.close();
  }
}
