// The sandbox in SQLite through Node's built-in node:sqlite: a database file (--state), or
// memory without one. One process owns it, so its transactions run one after another; WAL mode
// makes every committed request survive a crash of the process.
import { randomUUID } from "node:crypto";
import type { DatabaseSync, SQLInputValue, StatementSync } from "node:sqlite";
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { realNow } from "../clock/index.js";
import { EmptyCollections } from "./empty-collections.js";
import { EventsCommitted } from "./events-committed.js";
import { groupCommit } from "./group-commit.js";
import { EXAMPLE_PARTNER_ID } from "./partner.js";
import { PartnerVersions } from "./partner-versions.js";
import { MarkedCounts } from "./readiness-counts.js";
import { BatchNumbers } from "./request-log-rows.js";
import type { CollectionName, SandboxData } from "./sandbox-data.js";
import {
  type Ddl,
  migrate,
  migratedLine,
  refuseNewer,
  type VersionRecord,
} from "./schema-migrations.js";
import type { Query } from "./sql-query.js";
import {
  type Dialect,
  dueJobs,
  duePartners,
  type OnlyProcess,
  type PendingClaims,
  purgeIdle,
  removeJobs,
  type SqlTransaction,
  sqlTransaction,
  type Upkeep,
  upkeepOf,
  writeClaims,
} from "./sql-store.js";
import { type SandboxStore, StoreFullError, type StoreTransaction } from "./store.js";

/** The first 16 bytes of every SQLite database file. */
export const SQLITE_HEADER = "SQLite format 3\0";

/** A statement that only reads: the sandbox's SELECTs (PRAGMAs are run once, at opening). */
const READ_ONLY = /^\s*SELECT\b/i;
/**
 * A statement that writes the request log only, which no kept read answers from: it leaves the
 * read cache standing, so that logging the reads does not make each one a miss.
 */
const REQUEST_LOG_ONLY = /^\s*(INSERT INTO|DELETE FROM) request_log\b/i;

/** A write of the readiness counters only, which no kept read's answer shows. */
const COUNTERS_ONLY = /^\s*(INSERT INTO|DELETE FROM) readiness_counts\b/;

/** SQLite's own limit for a memdb database (SQLITE_MEMDB_DEFAULT_MAXSIZE). */
const MEMORY_LIMIT_BYTES = 1024 ** 3;

export interface SqliteStoreOptions {
  /** Where the line saying that an existing database was migrated goes. */
  log?: (line: string) => void;
  /** In memory, at most this many bytes (lower only in tests). */
  memoryLimitBytes?: number;
  /** Keep the readiness counters (default true; false only to measure what they cost). */
  counting?: boolean;
}

/** The database file, or a refusal naming it: SQLite's own message names no file. */
function openDatabase(Database: typeof DatabaseSync, location: string, what: string): DatabaseSync {
  try {
    return new Database(location);
  } catch (error) {
    throw new Error(
      `The ${what} cannot be opened: ${(error as Error).message} (does its folder exist, and may this process write there?)`,
      { cause: error },
    );
  }
}

/**
 * Opens (or creates, with `initial` as the example partner's data) the database at `path`, or one
 * in memory, and applies the schema migrations it lacks.
 */
export async function openSqliteStore(
  path: string | undefined,
  initial: () => SandboxData,
  {
    log = () => {},
    memoryLimitBytes = MEMORY_LIMIT_BYTES,
    counting = true,
  }: SqliteStoreOptions = {},
): Promise<SandboxStore> {
  const { DatabaseSync } = await loadNodeSqlite();
  const what = path === undefined ? "in-memory sandbox" : `sandbox state file ${path}`;
  const db = openDatabase(DatabaseSync, path ?? inMemory(), what);
  try {
    if (path === undefined) db.deserialize(await migratedSchema(DatabaseSync));
    // Before anything writes to the file.
    refuseForeign(db, what);
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
  } catch (error) {
    db.close();
    throw error;
  }
  const store = sqliteStore(db, path, memoryLimitBytes, counting);
  try {
    // The migrations and a new database's first data commit together.
    const migrated = await store.transaction(EXAMPLE_PARTNER_ID, async (tx) => {
      const exec = async (statement: string) => db.exec(statement);
      const done = await migrate(exec, SQLITE_DDL, userVersion(db), what);
      // In memory the database is new, though it starts from the migrated schema's copy.
      if (path === undefined || done.from === 0) {
        await tx.enter(realNow());
        await tx.fill(initial());
      }
      return done;
    });
    const line = migratedLine(what, migrated);
    if (line !== undefined) log(line);
    return store;
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
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

/** The schema, migrated once per process into an empty database, as that database's bytes. */
let migratedImage: Promise<Uint8Array> | undefined;

/**
 * An in-memory store starts from a copy of the migrated schema: a test's fresh sandbox then costs
 * a copy of its few dozen pages rather than the migrations' statements (half of its making).
 */
function migratedSchema(Database: typeof DatabaseSync): Promise<Uint8Array> {
  migratedImage ??= (async () => {
    const db = new Database(inMemory());
    try {
      db.exec("BEGIN");
      await migrate(
        async (statement) => db.exec(statement),
        SQLITE_DDL,
        userVersion(db),
        "in-memory sandbox",
      );
      db.exec("COMMIT");
      return db.serialize();
    } finally {
      db.close();
    }
  })();
  migratedImage.catch(() => {
    migratedImage = undefined;
  });
  return migratedImage;
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

const SQLITE_DDL: Ddl = { dialect: "sqlite", serial: "INTEGER PRIMARY KEY AUTOINCREMENT" };

/** SQLite keeps the schema version in its file header. */
function userVersion(db: DatabaseSync): VersionRecord {
  return {
    read: async () => Number(db.prepare("PRAGMA user_version").get()?.user_version ?? 0),
    write: async (version) => {
      db.exec(`PRAGMA user_version = ${version}`);
    },
  };
}

/** Refuses a database that is not a sandbox's, or one a newer payments-mock set up. */
function refuseForeign(db: DatabaseSync, what: string): void {
  const version = Number(db.prepare("PRAGMA user_version").get()?.user_version ?? 0);
  const tables = Number(db.prepare("SELECT count(*) AS n FROM sqlite_master").get()?.n ?? 0);
  if (version === 0 && tables > 0) {
    throw new Error(
      `The ${what} is a SQLite database, but not a sandbox's: it has tables but no sandbox schema version. It was left untouched; choose another --state file.`,
    );
  }
  refuseNewer(version, what);
}

/**
 * search_term through an FTS5 trigram index of the search text (already lower case), keyed by
 * seq: a GLOB for the term finds the rows without reading every customer. Each row's text there
 * starts with its partner's and collection's own mark (see searchMark), and a search's pattern
 * with the caller's: the index finds the caller's rows through the mark's trigram, so that how
 * long a search takes does not grow with another partner's rows that hold the term (one index
 * of every partner's text, searched before the rows were filtered to the caller, took 100 ms for
 * B's search with 100,000 of A's rows matching, against 0.1 ms with none). The index is written
 * when a search needs it, not by each create: FTS5 writes a new segment (and merges segments) at
 * every commit that changed it, which cost a create more than the rest of its work. Each
 * partner's collection is indexed by its own searches: its rows up to the highest seq indexed
 * are indexed with their current text; the ones after it, not yet.
 */
const SQLITE: Dialect = {
  lockRows: "",
  skipLocked: "",
  json: {
    // SQLite reads JSON true as the integer 1.
    text: (path) => `json_extract(body, '$.${path.join(".")}')`,
    isTrue: (path) => `json_extract(body, '$.${path.join(".")}') = 1`,
  },
  searchIndex: {
    matches: (placeholder) =>
      `seq IN (SELECT rowid FROM resources_search WHERE search GLOB ${placeholder})`,
    pattern: (term, partner, collection) =>
      `${searchMark(partner, collection)}*${term.replace(/[*?[]/g, (character) => `[${character}]`)}*`,
    async write(query, { partner, collection, seq }, search, replacing) {
      // A new row (its seq was never used before) waits for the next search, as does a changed
      // one that is not indexed yet.
      if (!replacing || seq > (await indexedUpTo(query, partner, collection))) return;
      await query("DELETE FROM resources_search WHERE rowid = $1", [seq]);
      await query("INSERT INTO resources_search (rowid, search) VALUES ($1, $2)", [
        seq,
        `${searchMark(partner, collection)}${search}`,
      ]);
    },
    async update(query, partner, collection) {
      const upTo = await indexedUpTo(query, partner, collection);
      const [last] = await query(
        "SELECT seq FROM resources WHERE partner = $1 AND collection = $2 ORDER BY seq DESC LIMIT 1",
        [partner, collection],
      );
      // A search with nothing to index writes nothing: the statement would open the index for writing.
      if (Number(last?.seq ?? 0) <= upTo) return;
      await query(
        `INSERT INTO resources_search (rowid, search)
          SELECT seq, $1 || search FROM resources WHERE partner = $2 AND collection = $3 AND seq > $4 ORDER BY seq`,
        [searchMark(partner, collection), partner, collection, upTo],
      );
    },
    async clear(query, partner) {
      await query(
        "DELETE FROM resources_search WHERE rowid IN (SELECT seq FROM resources WHERE partner = $1)",
        [partner],
      );
    },
  },
};

/** The first of the 6,400 characters of Unicode's private use area in its basic plane. */
const PRIVATE_USE = 0xe000;
const PRIVATE_USE_COUNT = 6_400;

/**
 * What the indexed text of a partner's collection starts with: three characters of the private
 * use area, from a hash of the partner and the collection, one trigram of its own (one in 2.6e11
 * is another's), which no lower-case search text is likely to hold.
 */
function searchMark(partner: string, collection: CollectionName): string {
  const hash = sha256(utf8ToBytes(`${partner}\n${collection}`));
  let mark = "";
  for (let index = 0; index < 6; index += 2) {
    const value = ((hash[index] ?? 0) << 8) | (hash[index + 1] ?? 0);
    mark += String.fromCharCode(PRIVATE_USE + (value % PRIVATE_USE_COUNT));
  }
  return mark;
}

/** The highest seq of the partner's collection in the search index (0 when none is). */
async function indexedUpTo(
  query: Query,
  partner: string,
  collection: CollectionName,
): Promise<number> {
  const [row] = await query(
    "SELECT rowid FROM resources_search WHERE search GLOB $1 ORDER BY rowid DESC LIMIT 1",
    [`${searchMark(partner, collection)}*`],
  );
  return Number(row?.rowid ?? 0);
}

/** The partners whose transaction operations are kept made; past this many, they are made afresh. */
const OPERATIONS_KEPT = 1_000;

/** SQLite's result code for a database that cannot grow. */
const SQLITE_FULL = 13;

/** The error a change that did not fit failed with, in the words a user can act on. */
function fullOr(error: unknown, path: string | undefined, memoryLimitBytes: number): unknown {
  if ((error as { errcode?: unknown } | null)?.errcode !== SQLITE_FULL) return error;
  const message =
    path === undefined
      ? `The in-memory sandbox is full: it holds at most ${sizeInWords(memoryLimitBytes)}, every key's data together. POST /_sandbox/reset empties this key's data only; --state <file> keeps the data in a SQLite file, without this limit.`
      : `The disk that holds the sandbox's state file ${path} is full.`;
  return new StoreFullError(message, { cause: error });
}

/** A size in the largest binary unit that gives a whole number or one decimal: `1 GiB`, `256 KiB`. */
function sizeInWords(bytes: number): string {
  const units = ["bytes", "KiB", "MiB", "GiB"];
  const power = Math.min(
    units.length - 1,
    Math.floor(Math.log(Math.max(bytes, 1)) / Math.log(1024)),
  );
  return `${Number((bytes / 1024 ** power).toFixed(1))} ${units[power]}`;
}

/** The stores' SQL (Postgres's `$1`) with SQLite's numbered parameters (`?1`). */
function sqliteParameters(text: string): string {
  return text.replace(/\$(\d+)/g, "?$1");
}

function sqliteStore(
  db: DatabaseSync,
  path: string | undefined,
  memoryLimitBytes: number,
  counting: boolean,
): SandboxStore {
  const persistent = path !== undefined;
  const statements = new Map<string, { statement: StatementSync; writes: boolean }>();
  /** Moves with every statement that may change the data: a transaction that moves it moves its partner's version. */
  let version = 0;
  const versions = new PartnerVersions();
  const query: Query = async (text, params = []) => {
    let prepared = statements.get(text);
    if (prepared === undefined) {
      prepared = {
        statement: db.prepare(sqliteParameters(text)),
        writes: !READ_ONLY.test(text) && !REQUEST_LOG_ONLY.test(text) && !COUNTERS_ONLY.test(text),
      };
      statements.set(text, prepared);
    }
    if (prepared.writes) version++;
    return prepared.statement.all(...(params as SQLInputValue[]));
  };
  const upkeep = upkeepOf();
  const only: OnlyProcess = {
    empties: new EmptyCollections(),
    claims: new Map() as PendingClaims,
    marked: new MarkedCounts(),
    events: [],
    batchNumbers: new BatchNumbers(),
  };
  const committed = new EventsCommitted();
  // A partner's operations hold nothing of one transaction (they send each statement to the one
  // connection, whose transactions run one after another): made once, not at every request.
  const operations = new Map<string, SqlTransaction>();
  const operationsOf = (partner: string) => {
    let tx = operations.get(partner);
    if (tx === undefined) {
      if (operations.size >= OPERATIONS_KEPT) operations.clear();
      tx = sqlTransaction(query, SQLITE, upkeep, partner, only, counting);
      operations.set(partner, tx);
    }
    return tx;
  };
  // One connection: a transaction waits for the one before it to end.
  const queue = groupCommit(db);
  // The same class as `db`'s: node:sqlite is loaded once, where its absence can be explained.
  const Database = db.constructor as typeof DatabaseSync;
  const reads = persistent ? committedReads(() => new Database(path), upkeep) : undefined;
  const store: SandboxStore = {
    shared: false,
    version: (partner) => versions.of(partner),
    transaction: (partner, work) => {
      let wroteEvents = false;
      return queue
        .transaction(async () => {
          // Transactions run one after another: the claims and events pending are this one's,
          // and so are the statements that move `version` meanwhile.
          const before = version;
          only.claims.clear();
          only.events.length = 0;
          const tx = operationsOf(partner);
          const result = await work(tx);
          await writeClaims(query, only.claims);
          wroteEvents = await tx.writeEvents();
          if (version !== before) versions.moved(partner);
          return result;
        })
        .then((result) => {
          if (wroteEvents) committed.tell(partner);
          return result;
        })
        .catch((error: unknown) => {
          // Whatever a failed transaction undid, nothing read before it is kept.
          versions.moved(partner);
          only.empties.forget();
          only.marked.forget();
          throw fullOr(error, path, memoryLimitBytes);
        });
    },
    read: (partner, work) => reads?.read(partner, work) ?? store.transaction(partner, work),
    onEventsCommitted: (listener) => committed.listen(listener),
    // One process owns the file, and its scheduler runs one batch of a partner's at a time: the
    // jobs it reads are its own until they are removed. They are performed (a delivery's
    // requests) outside any transaction, so that requests go on meanwhile.
    async runBatch(partner, kind, upTo, limit, perform) {
      const jobs = await queue.alone(() => dueJobs(query, partner, kind, upTo, limit, ""));
      if (jobs.length === 0) return 0;
      const finish = await perform(jobs);
      return store.transaction(partner, async (tx) => {
        const done = await finish(tx);
        await removeJobs(query, jobs.slice(0, done));
        return done;
      });
    },
    // The same, but each part is recorded in a transaction of its own as it is done.
    async holdJobs(partner, kind, upTo, limit) {
      const jobs = await queue.alone(() => dueJobs(query, partner, kind, upTo, limit, ""));
      return {
        jobs,
        record: (done, finish) =>
          store.transaction(partner, async (tx) => {
            // Nothing is written for jobs a reset (or a purge) removed while they were sent: it
            // left nothing of before (as on Postgres).
            if ((await removeJobs(query, done)) === 0) return;
            await finish(tx);
          }),
        release: async () => {},
      };
    },
    duePartners: (now) => queue.alone(() => duePartners(query, now)),
    purgeIdle: (seenBefore) =>
      store.transaction(EXAMPLE_PARTNER_ID, async () => {
        const purged = await purgeIdle(query, SQLITE.searchIndex, seenBefore);
        // Their counters are gone: what was marked of them is no longer there.
        if (purged.length > 0) only.marked.forget();
        for (const partner of purged) versions.moved(partner);
        return purged;
      }),
    async close() {
      await queue.alone(async () => {
        reads?.close();
        db.close();
      });
    },
  };
  return store;
}

/**
 * Reads of what has committed to a SQLite file, on a connection of their own that is opened at
 * the first: in WAL mode a read transaction sees the file as its last commit left it, while the
 * writing connection's transactions go on. One read at a time on it, as a connection runs one
 * transaction at a time.
 */
function committedReads(open: () => DatabaseSync, upkeep: Upkeep) {
  let db: DatabaseSync | undefined;
  let last: Promise<unknown> = Promise.resolve();
  const statements = new Map<string, StatementSync>();
  const query: Query = async (text, params = []) => {
    let statement = statements.get(text);
    if (statement === undefined) {
      statement = connection().prepare(sqliteParameters(text));
      statements.set(text, statement);
    }
    return statement.all(...(params as SQLInputValue[]));
  };
  const connection = () => {
    if (db === undefined) {
      db = open();
      // Whatever runs on it only reads: a write is refused rather than racing the writer's.
      db.exec("PRAGMA query_only = ON");
    }
    return db;
  };
  const run = async <T>(partner: string, work: (tx: StoreTransaction) => Promise<T>) => {
    connection().exec("BEGIN");
    try {
      return await work(sqlTransaction(query, SQLITE, upkeep, partner, undefined, false));
    } finally {
      db?.exec("COMMIT");
    }
  };
  return {
    read<T>(partner: string, work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
      const result = last.then(
        () => run(partner, work),
        () => run(partner, work),
      );
      last = result.catch(() => {});
      return result;
    },
    close(): void {
      db?.close();
      db = undefined;
    },
  };
}
