// A readiness report read straight from a sandbox's store, for `payments-mock readiness --state`:
// the SQLite file or the Postgres database a sandbox keeps, which it may be using meanwhile.
import { partnerIdOf } from "../store/partner.js";
import { isPostgresUrl, openPostgresStore, redactedUrl } from "../store/postgres-store.js";
import { COLLECTIONS, type SandboxData } from "../store/sandbox-data.js";
import { openSqliteStore } from "../store/sqlite-store.js";
import { stateFileKind } from "../store/state-file.js";
import type { Profile } from "./profile.js";
import { type ReadinessReport, readinessReport } from "./report.js";

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
  const postgres = isPostgresUrl(state);
  const kind = postgres ? "postgres" : stateFileKind(state);
  if (kind === "none") throw new Error(`no sandbox state file at ${state}`);
  if (kind === "json") {
    throw new Error(
      `${state} is a payments-mock 0.1 JSON state file, which keeps no readiness counters: start the sandbox on it once (it becomes a SQLite database) and run the integration again`,
    );
  }
  // The store is there already: nothing is made in it, whatever it is opened with.
  const emptyData = (): SandboxData => ({
    collections: Object.fromEntries(
      COLLECTIONS.map((name) => [name, []]),
    ) as unknown as SandboxData["collections"],
    idempotency: {},
    events: [],
  });
  const store = postgres
    ? await openPostgresStore(state, emptyData, () => {}).catch((error: Error) => {
        throw new Error(`cannot open ${redactedUrl(state)}: ${error.message}`);
      })
    : await openSqliteStore(state, emptyData);
  try {
    const partner = partnerIdOf(apiKey, exampleKey);
    return await store.transaction(partner, (tx) => readinessReport(tx, partner, profile));
  } finally {
    await store.close();
  }
}
