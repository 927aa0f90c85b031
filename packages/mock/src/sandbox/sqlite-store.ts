// The sandbox in SQLite through Node's built-in node:sqlite: a database file (--state), or
// memory without one. One process owns it, so its transactions run one after another; WAL mode
// makes every committed request survive a crash of the process.
import { randomUUID } from "node:crypto";
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import { groupCommit } from "./group-commit.js";
import {
  adoptOutbox,
  type Dialect,
  nextDueJob,
  purgeSchedule,
  type Query,
  removeJob,
  SCHEMA_VERSION,
  schemaStatements,
  sqlTransaction,
  UNANSWERED_KEYS_INDEX,
} from "./sql-store.js";
import type { SandboxData } from "./state.js";
import { type SandboxStore, StoreFullError } from "./store.js";
import { testModeStatements } from "./test-mode-schema.js";

/** The first 16 bytes of every SQLite database file. */
export const SQLITE_HEADER = "SQLite format 3\0";

/** SQLite's own limit for a memdb database (SQLITE_MEMDB_DEFAULT_MAXSIZE). */
export const MEMORY_LIMIT_BYTES = 1024 ** 3;

/**
 * Opens (or creates, filled with `initial`) the database at `path`, or one in memory of at most
 * `memoryLimitBytes` (lower only in tests).
 */
export async function openSqliteStore(
  path: string | undefined,
  initial: () => SandboxData,
  memoryLimitBytes = MEMORY_LIMIT_BYTES,
): Promise<SandboxStore> {
  const { DatabaseSync } = await loadNodeSqlite();
  const db = new DatabaseSync(path ?? inMemory());
  let fresh: boolean;
  try {
    fresh = prepareSchema(db, path);
    if (path === undefined) {
      const pageSize = Number(db.prepare("PRAGMA page_size").get()?.page_size);
      db.exec(`PRAGMA max_page_count = ${Math.floor(memoryLimitBytes / pageSize)}`);
    }
    // A request's savepoint journals the pages it changes; in memory rather than a temporary file.
    db.exec("PRAGMA temp_store = MEMORY");
    if (path !== undefined) {
      db.exec("PRAGMA journal_mode = WAL");
      // In WAL mode, NORMAL keeps every commit across a crash of the process (not of the OS).
      db.exec("PRAGMA synchronous = NORMAL");
      // Checkpoints (the only fsyncs in this mode) every ~40 MB of log rather than every 4 MB.
      db.exec("PRAGMA wal_autocheckpoint = 10000");
    }
    if (!fresh) {
      db.exec(UNANSWERED_KEYS_INDEX);
      for (const statement of testModeStatements(SERIAL)) db.exec(statement);
    }
  } catch (error) {
    db.close();
    throw error;
  }
  const store = sqliteStore(db, path);
  // The tables and the first data commit together.
  if (fresh) {
    await store.transaction((tx) => {
      createSchema(db);
      return tx.replaceAll(initial());
    });
  } else {
    await store.transaction(() => adoptOutbox(sqliteQuery(db)));
  }
  return store;
}

/**
 * A database in memory, in SQLite's memdb file system rather than `:memory:`: a `:memory:`
 * database's inserts and commits grow slower as it fills (a create cost three times the CPU after
 * 200,000 creates as in the first 60,000), memdb's do not. memdb holds at most 1 GiB (about
 * 850,000 customer creates with their idempotency keys). Connections of a process that open one
 * name share its database, so each sandbox gets a name of its own.
 */
function inMemory(): string {
  return `file:/payments-sandbox-${randomUUID()}?vfs=memdb`;
}

async function loadNodeSqlite(): Promise<typeof import("node:sqlite")> {
  try {
    return await import("node:sqlite");
  } catch (error) {
    throw new Error(
      `The stateful sandbox needs Node's built-in node:sqlite (Node 24.18 or later); this is Node ${process.versions.node}. Install a newer Node.`,
      { cause: error },
    );
  }
}

/** True when the database is empty and needs the tables. Refuses a database that is not the sandbox's. */
function prepareSchema(db: DatabaseSync, path: string | undefined): boolean {
  const version = Number(db.prepare("PRAGMA user_version").get()?.user_version ?? 0);
  const tables = Number(db.prepare("SELECT count(*) AS n FROM sqlite_master").get()?.n ?? 0);
  if (version === 0 && tables > 0) {
    throw new Error(
      `The sandbox state file ${path} is a SQLite database, but not a sandbox's: it has tables but no sandbox schema version. It was left untouched; choose another --state file.`,
    );
  }
  if (version > SCHEMA_VERSION) {
    throw new Error(
      `The sandbox state file ${path} was written by a newer payments-mock (schema ${version}; this one knows up to ${SCHEMA_VERSION}). It was left untouched; upgrade payments-mock.`,
    );
  }
  return version < SCHEMA_VERSION;
}

/** An auto-increment primary key column, as SQLite spells it. */
const SERIAL = "INTEGER PRIMARY KEY AUTOINCREMENT";

function createSchema(db: DatabaseSync): void {
  for (const statement of [...schemaStatements(SERIAL), ...testModeStatements(SERIAL)]) {
    db.exec(statement);
  }
  db.exec(
    `CREATE VIRTUAL TABLE resources_search USING fts5(search, tokenize = "trigram case_sensitive 1")`,
  );
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
}

/**
 * search_term through an FTS5 trigram index of the search text (already lower case), keyed by
 * seq: a GLOB for the term finds the rows without reading every customer. The index is written
 * when a search needs it, not by each create: FTS5 writes a new segment (and merges segments) at
 * every commit that changed it, which cost a create more than the rest of its work. Rows up to
 * the highest seq indexed are indexed with their current text; the ones after it, not yet.
 */
const SQLITE: Dialect = {
  lockRows: "",
  skipLocked: "",
  searchIndex: {
    matches: (placeholder) =>
      `seq IN (SELECT rowid FROM resources_search WHERE search GLOB ${placeholder})`,
    pattern: (term) => `*${term.replace(/[*?[]/g, (character) => `[${character}]`)}*`,
    async write(query, seq, search, replacing) {
      // A new row (its seq was never used before) waits for the next search, as does a changed
      // one that is not indexed yet.
      if (!replacing || seq > (await indexedUpTo(query))) return;
      await query("DELETE FROM resources_search WHERE rowid = $1", [seq]);
      await query("INSERT INTO resources_search (rowid, search) VALUES ($1, $2)", [seq, search]);
    },
    async update(query) {
      const upTo = await indexedUpTo(query);
      const [last] = await query("SELECT seq FROM resources ORDER BY seq DESC LIMIT 1");
      // A search with nothing to index writes nothing: the statement would open the index for writing.
      if (Number(last?.seq ?? 0) <= upTo) return;
      await query(
        "INSERT INTO resources_search (rowid, search) SELECT seq, search FROM resources WHERE seq > $1 ORDER BY seq",
        [upTo],
      );
    },
    async clear(query) {
      await query("DELETE FROM resources_search");
    },
  },
};

/** The highest seq in the search index (0 when it is empty). */
async function indexedUpTo(query: Query): Promise<number> {
  const [row] = await query("SELECT rowid FROM resources_search ORDER BY rowid DESC LIMIT 1");
  return Number(row?.rowid ?? 0);
}

/** SQLite's result code for a database that cannot grow. */
const SQLITE_FULL = 13;

/** The error a change that did not fit failed with, in the words a user can act on. */
function fullOr(error: unknown, path: string | undefined): unknown {
  if ((error as { errcode?: unknown } | null)?.errcode !== SQLITE_FULL) return error;
  const message =
    path === undefined
      ? `The in-memory sandbox is full: it holds at most ${MEMORY_LIMIT_BYTES / 1024 ** 3} GiB. POST /_sandbox/reset empties it; --state <file> keeps the data in a SQLite file, without this limit.`
      : `The disk that holds the sandbox's state file ${path} is full.`;
  return new StoreFullError(message, { cause: error });
}

/** Statements with `$1`-style parameters on the connection, each prepared once. */
function sqliteQuery(db: DatabaseSync): Query {
  const statements = new Map<string, StatementSync>();
  return async (text, params = []) => {
    let statement = statements.get(text);
    if (statement === undefined) {
      statement = db.prepare(text.replace(/\$(\d+)/g, "?$1"));
      statements.set(text, statement);
    }
    return statement.all(...(params as SQLInputValue[]));
  };
}

function sqliteStore(db: DatabaseSync, path: string | undefined): SandboxStore {
  const persistent = path !== undefined;
  const query = sqliteQuery(db);
  const tx = sqlTransaction(query, SQLITE, purgeSchedule());
  // One connection: a transaction waits for the one before it to end.
  const queue = groupCommit(db);
  const store: SandboxStore = {
    shared: false,
    transaction: (work) =>
      queue
        .transaction(() => work(tx))
        .catch((error: unknown) => {
          throw fullOr(error, path);
        }),
    // One process owns the file, and its scheduler runs one job at a time: the job it reads is
    // its own until it is removed.
    async runNext(upTo, perform) {
      const job = await queue.alone(() => nextDueJob(query, upTo, ""));
      if (job === undefined) return false;
      const finish = await perform(job);
      await store.transaction(async (inner) => {
        await finish(inner);
        await removeJob(query, job.seq);
      });
      return true;
    },
    async close() {
      await queue.alone(async () => {
        // A file is left fully indexed, as payments-mock versions that index at each create expect.
        try {
          if (persistent) await SQLITE.searchIndex?.update(query);
        } finally {
          db.close();
        }
      });
    },
  };
  return store;
}
