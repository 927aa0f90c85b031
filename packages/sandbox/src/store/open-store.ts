// Opens the store a sandbox's `state` option names: memory without one, Postgres for a
// postgres:// URL, otherwise a SQLite file (migrating a 0.1 JSON state file into it first).
import { isPostgresUrl, openPostgresStore } from "./postgres-store.js";
import type { SandboxData } from "./sandbox-data.js";
import { openSqliteStore } from "./sqlite-store.js";
import { readJsonStateFile, replaceJsonWithDatabase, stateFileKind } from "./state-file.js";
import type { SandboxStore } from "./store.js";

/**
 * @param initial the data an empty store starts with (the seed)
 * @param log where the line about a migrated database or JSON state file goes
 * @param counting keep the readiness counters (false only to measure what they cost)
 */
export async function openStore(
  state: string | undefined,
  initial: () => SandboxData,
  log: (line: string) => void,
  { counting = true }: { counting?: boolean } = {},
): Promise<SandboxStore> {
  if (state === undefined) return openSqliteStore(undefined, initial, { counting });
  if (isPostgresUrl(state)) return openPostgresStore(state, initial, log, { counting });
  if (stateFileKind(state) === "json") {
    const data = readJsonStateFile(state);
    const backup = await replaceJsonWithDatabase(state, async (temporary) => {
      await (await openSqliteStore(temporary, () => data)).close();
    });
    log(
      `payments-mock: ${state} was a payments-mock 0.1 JSON state file; its data (${countOf(data)}) is now in a SQLite database at ${state}, and the JSON file is kept unchanged as ${backup}.`,
    );
  }
  return openSqliteStore(state, initial, { log, counting });
}

function countOf(data: SandboxData): string {
  const resources = Object.values(data.collections).reduce((sum, list) => sum + list.length, 0);
  const keys = Object.keys(data.idempotency).length;
  return `${resources} resources, ${keys} idempotency keys, ${data.events.length} events`;
}
