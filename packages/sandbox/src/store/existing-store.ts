// A sandbox's store as it is on disk or in Postgres, opened to be read (for `payments-mock
// readiness --state`) while the sandbox may be using it. A file that is not there, or not yet a
// database, is refused: nothing is made.
import { isPostgresUrl, openPostgresStore, redactedUrl } from "./postgres-store.js";
import { COLLECTIONS, type SandboxData } from "./sandbox-data.js";
import { openSqliteStore } from "./sqlite-store.js";
import { stateFileKind } from "./state-file.js";
import type { SandboxStore } from "./store.js";

export async function openExistingStore(state: string): Promise<SandboxStore> {
  const postgres = isPostgresUrl(state);
  const kind = postgres ? "postgres" : stateFileKind(state);
  if (kind === "none") {
    throw new Error(
      `no sandbox state file at ${state}: give --state the file a sandbox keeps its data in (its own --state)`,
    );
  }
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
  return postgres
    ? await openPostgresStore(state, emptyData, () => {}).catch((error: Error) => {
        throw new Error(`cannot open ${redactedUrl(state)}: ${error.message}`);
      })
    : await openSqliteStore(state, emptyData);
}
