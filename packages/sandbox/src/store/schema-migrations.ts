// The sandbox's tables and indexes as one ordered list of migrations, shared by SQLite and
// Postgres. A database records how many it has applied, its schema version (SQLite's
// `PRAGMA user_version`, Postgres's `sandbox_schema` table); opening it applies the rest, in order,
// in the one transaction that also reads that version, so a database is at one version or the
// next, never in between. A change to the tables is one more entry at the end of MIGRATIONS,
// with its statements for both databases; a released entry never changes.

import { SETTINGS_TABLE } from "../settings.js";

/** The words in which the two databases' DDL differs. */
export interface Ddl {
  dialect: "sqlite" | "postgres";
  /** The type of an auto-incrementing integer primary key column. */
  serial: string;
}

export interface Migration {
  /** Its position in MIGRATIONS, from 1: the schema version a database has once it is applied. */
  version: number;
  /** What it changes, for the line that says a database was migrated. */
  name: string;
  /**
   * Its statements for `ddl`'s database. Both read TEXT, INTEGER and BIGINT alike; `ddl.serial`
   * spells an auto-increment key, and `ddl.dialect` picks what only one database has.
   */
  statements(ddl: Ddl): string[];
}

/** The filter indexes, on their columns: each holds only the rows that have its column. */
const FILTER_INDEXES = {
  resources_scope: "sub_partner_id",
  resources_customer: "customer_id",
  resources_external: "external_id",
};

const filterIndexes = Object.entries(FILTER_INDEXES).map(
  ([name, column]) =>
    `CREATE INDEX ${name} ON resources (collection, ${column}, seq) WHERE ${column} IS NOT NULL`,
);

/** The claims still without an answer, which a claim purges after a minute. */
const unansweredKeysIndex =
  "CREATE INDEX IF NOT EXISTS idempotency_unanswered ON idempotency (created_at) WHERE answer IS NULL";

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "the sandbox's tables, as payments-mock made them before versioned migrations",
    statements: ({ dialect, serial }) => [
      `CREATE TABLE resources (
        seq ${serial},
        collection TEXT NOT NULL,
        id TEXT NOT NULL,
        sub_partner_id TEXT,
        linked_customer TEXT,
        customer_id TEXT,
        external_id TEXT,
        search TEXT NOT NULL,
        body TEXT NOT NULL,
        UNIQUE (collection, id)
      )`,
      "CREATE INDEX resources_order ON resources (collection, seq)",
      ...filterIndexes,
      `CREATE TABLE idempotency (
        idem_key TEXT PRIMARY KEY,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        answer TEXT,
        created_at BIGINT NOT NULL
      )`,
      "CREATE INDEX idempotency_age ON idempotency (created_at)",
      unansweredKeysIndex,
      `CREATE TABLE events (seq ${serial}, body TEXT NOT NULL)`,
      `CREATE TABLE outbox (seq ${serial}, webhook_id TEXT NOT NULL, url TEXT NOT NULL, payload TEXT NOT NULL)`,
      // search_term's trigram index (see sqlite-store.ts); Postgres scans instead.
      ...(dialect === "sqlite"
        ? [
            `CREATE VIRTUAL TABLE resources_search USING fts5(search, tokenize = "trigram case_sensitive 1")`,
          ]
        : []),
    ],
  },
  {
    version: 2,
    name: "filter indexes of only the rows that have their column, and an index of unanswered idempotency keys, in every schema-1 database",
    // Schema-1 databases made before these indexes have filter indexes of every row, or no index
    // of unanswered keys (versions before this list added it at each opening); these give every
    // one of them the indexes a new database has.
    statements: () => [
      ...Object.keys(FILTER_INDEXES).map((name) => `DROP INDEX IF EXISTS ${name}`),
      ...filterIndexes,
      unansweredKeysIndex,
    ],
  },
  {
    version: 3,
    name: "test mode: the sandbox clock and the work scheduled on it; events left in the outbox become scheduled deliveries",
    statements: ({ dialect, serial }) => {
      const json =
        dialect === "sqlite"
          ? {
              id: "json_extract(payload, '$.id')",
              job: "json_object('webhook_id', webhook_id, 'url', url, 'attempt', 1, 'event', json(payload))",
            }
          : {
              id: "payload::json->>'id'",
              job: "json_build_object('webhook_id', webhook_id, 'url', url, 'attempt', 1, 'event', payload::json)::text",
            };
      return [
        // How far (ms) sandbox time is ahead of real time: one row.
        "CREATE TABLE sandbox_clock (id INTEGER PRIMARY KEY, offset_ms BIGINT NOT NULL)",
        "INSERT INTO sandbox_clock (id, offset_ms) VALUES (1, 0)",
        // Timed lifecycle steps and webhook delivery attempts, by the sandbox time they are due.
        `CREATE TABLE scheduled_work (
          seq ${serial},
          due_at BIGINT NOT NULL,
          kind TEXT NOT NULL,
          subject TEXT NOT NULL,
          body TEXT NOT NULL
        )`,
        // The runner reads the earliest due work; a change cancels its resource's pending steps
        // (deliveries, most of the work, are never cancelled: they write no entry here).
        "CREATE INDEX scheduled_work_due ON scheduled_work (due_at, seq)",
        "CREATE INDEX scheduled_work_steps ON scheduled_work (subject) WHERE kind = 'step'",
        `INSERT INTO scheduled_work (due_at, kind, subject, body)
          SELECT 0, 'deliver', ${json.id}, ${json.job} FROM outbox ORDER BY seq`,
        "DROP TABLE outbox",
      ];
    },
  },
  {
    version: 4,
    name: "sandbox settings: the rate table and the secret quotes are signed with",
    statements: () => [SETTINGS_TABLE],
  },
];

/** The schema version of a database with every migration applied. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Where a database keeps its schema version, read and written in the migrating transaction. */
export interface VersionRecord {
  read(): Promise<number>;
  write(version: number): Promise<void>;
}

export interface Migrated {
  /** The version the database had: 0 for a new one. */
  from: number;
  to: number;
}

/**
 * Applies the migrations the database lacks, in the caller's transaction, which must hold the
 * database for itself (SQLite's one connection, Postgres's advisory lock) so that a second
 * opener finds them applied. `what` names the database in errors and in migratedLine.
 */
export async function migrate(
  exec: (statement: string) => Promise<unknown>,
  ddl: Ddl,
  record: VersionRecord,
  what: string,
): Promise<Migrated> {
  const from = await record.read();
  refuseNewer(from, what);
  for (const migration of MIGRATIONS.slice(from)) {
    for (const statement of migration.statements(ddl)) await exec(statement);
  }
  if (from < SCHEMA_VERSION) await record.write(SCHEMA_VERSION);
  return { from, to: SCHEMA_VERSION };
}

/** Throws when the database was set up by a newer payments-mock than this one. */
export function refuseNewer(version: number, what: string): void {
  if (version <= SCHEMA_VERSION) return;
  throw new Error(
    `The ${what} was set up by a newer payments-mock (schema ${version}; this one knows up to ${SCHEMA_VERSION}). It was left untouched; upgrade payments-mock.`,
  );
}

/** The line saying that an existing database was migrated; undefined for a new or current one. */
export function migratedLine(what: string, { from, to }: Migrated): string | undefined {
  if (from === 0 || from === to) return undefined;
  const applied = MIGRATIONS.slice(from, to)
    .map((migration) => `${migration.version}: ${migration.name}`)
    .join("; ");
  return `payments-mock: migrated the ${what} in place from schema ${from} to ${to}, its data kept (${applied}).`;
}
