// The sandbox's tables and indexes as one ordered list of migrations, shared by SQLite and
// Postgres. A database records how many it has applied, its schema version (SQLite's
// `PRAGMA user_version`, Postgres's `sandbox_schema` table); opening it applies the rest, in order,
// in the one transaction that also reads that version, so a database is at one version or the
// next, never in between. A change to the tables is one more entry at the end of MIGRATIONS,
// with its statements for both databases; a released entry never changes.

import { EXAMPLE_PARTNER_ID } from "./partner.js";
import { READINESS_COUNTS_TABLE } from "./readiness-counts.js";
import { SETTINGS_TABLE } from "./settings.js";

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

/** The filter indexes once every row belongs to a partner: the partner's rows first. */
const partnerFilterIndexes = Object.entries(FILTER_INDEXES).map(
  ([name, column]) =>
    `CREATE INDEX ${name} ON resources (partner, collection, ${column}, seq) WHERE ${column} IS NOT NULL`,
);

/** Real time in ms, in SQL: when a migrated partner was last seen. */
const nowMs = (dialect: Ddl["dialect"]) =>
  dialect === "sqlite"
    ? "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
    : "CAST(extract(epoch FROM now()) * 1000 AS BIGINT)";

/**
 * Migration 5 in SQLite, which cannot change a table's unique keys: the tables keyed by
 * something a partner names are made again with the partner in their key, their rows (and seq,
 * which the search index is keyed by) copied.
 */
function sqlitePartners(serial: string): string[] {
  const partner = `'${EXAMPLE_PARTNER_ID}'`;
  return [
    `CREATE TABLE resources_partners (
      seq ${serial},
      partner TEXT NOT NULL,
      collection TEXT NOT NULL,
      id TEXT NOT NULL,
      sub_partner_id TEXT,
      linked_customer TEXT,
      customer_id TEXT,
      external_id TEXT,
      search TEXT NOT NULL,
      body TEXT NOT NULL,
      UNIQUE (partner, collection, id)
    )`,
    `INSERT INTO resources_partners (seq, partner, collection, id, sub_partner_id, linked_customer, customer_id, external_id, search, body)
      SELECT seq, ${partner}, collection, id, sub_partner_id, linked_customer, customer_id, external_id, search, body FROM resources ORDER BY seq`,
    "DROP TABLE resources",
    "ALTER TABLE resources_partners RENAME TO resources",
    `CREATE TABLE idempotency_partners (
      partner TEXT NOT NULL,
      idem_key TEXT NOT NULL,
      method TEXT NOT NULL,
      path TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      answer TEXT,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (partner, idem_key)
    )`,
    `INSERT INTO idempotency_partners SELECT ${partner}, idem_key, method, path, fingerprint, answer, created_at FROM idempotency`,
    "DROP TABLE idempotency",
    "ALTER TABLE idempotency_partners RENAME TO idempotency",
    "CREATE INDEX idempotency_age ON idempotency (created_at)",
    unansweredKeysIndex,
    "CREATE TABLE settings_partners (partner TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (partner, name))",
    `INSERT INTO settings_partners SELECT ${partner}, name, value FROM sandbox_settings`,
    "DROP TABLE sandbox_settings",
    "ALTER TABLE settings_partners RENAME TO sandbox_settings",
    "CREATE TABLE clock_partners (partner TEXT PRIMARY KEY, offset_ms BIGINT NOT NULL, seen_at BIGINT NOT NULL)",
    `INSERT INTO clock_partners SELECT ${partner}, offset_ms, ${nowMs("sqlite")} FROM sandbox_clock`,
    "DROP TABLE sandbox_clock",
    "ALTER TABLE clock_partners RENAME TO sandbox_clock",
    `ALTER TABLE events ADD COLUMN partner TEXT NOT NULL DEFAULT ${partner}`,
    "ALTER TABLE events ADD COLUMN n BIGINT NOT NULL DEFAULT 0",
    "UPDATE events SET n = seq",
    `ALTER TABLE scheduled_work ADD COLUMN partner TEXT NOT NULL DEFAULT ${partner}`,
    "DROP INDEX scheduled_work_due",
    "DROP INDEX scheduled_work_steps",
  ];
}

/** Migration 5 in Postgres: the partner column added, the keys that name things widened to it. */
function postgresPartners(): string[] {
  const partner = `'${EXAMPLE_PARTNER_ID}'`;
  const withPartner = (table: string) => [
    `ALTER TABLE ${table} ADD COLUMN partner TEXT NOT NULL DEFAULT ${partner}`,
    `ALTER TABLE ${table} ALTER COLUMN partner DROP DEFAULT`,
  ];
  return [
    ...withPartner("resources"),
    "ALTER TABLE resources DROP CONSTRAINT resources_collection_id_key",
    "ALTER TABLE resources ADD UNIQUE (partner, collection, id)",
    "DROP INDEX resources_order",
    ...Object.keys(FILTER_INDEXES).map((name) => `DROP INDEX ${name}`),
    ...withPartner("idempotency"),
    "ALTER TABLE idempotency DROP CONSTRAINT idempotency_pkey",
    "ALTER TABLE idempotency ADD PRIMARY KEY (partner, idem_key)",
    ...withPartner("sandbox_settings"),
    "ALTER TABLE sandbox_settings DROP CONSTRAINT sandbox_settings_pkey",
    "ALTER TABLE sandbox_settings ADD PRIMARY KEY (partner, name)",
    "CREATE TABLE clock_partners (partner TEXT PRIMARY KEY, offset_ms BIGINT NOT NULL, seen_at BIGINT NOT NULL)",
    `INSERT INTO clock_partners SELECT ${partner}, offset_ms, ${nowMs("postgres")} FROM sandbox_clock`,
    "DROP TABLE sandbox_clock",
    "ALTER TABLE clock_partners RENAME TO sandbox_clock",
    ...withPartner("events"),
    "ALTER TABLE events ADD COLUMN n BIGINT NOT NULL DEFAULT 0",
    "UPDATE events SET n = seq",
    ...withPartner("scheduled_work"),
    "DROP INDEX scheduled_work_due",
    "DROP INDEX scheduled_work_steps",
  ];
}

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
  {
    version: 5,
    name: "a partner per API key: every row belongs to a partner, each partner has its own clock; the data there was becomes the example key's partner's",
    statements: ({ dialect, serial }) => [
      ...(dialect === "sqlite" ? sqlitePartners(serial) : postgresPartners()),
      // Every read is of one partner's rows: the partner leads each index.
      "CREATE INDEX resources_order ON resources (partner, collection, seq)",
      ...partnerFilterIndexes,
      "CREATE INDEX events_partner ON events (partner, n)",
      // The clock takes a partner's steps, and its deliveries, in batches, each in the order due.
      "CREATE INDEX scheduled_work_due ON scheduled_work (partner, kind, due_at, seq)",
      "CREATE INDEX scheduled_work_steps ON scheduled_work (partner, subject) WHERE kind = 'step'",
      // The purge of idle partners reads them by when they were last seen.
      "CREATE INDEX sandbox_clock_seen ON sandbox_clock (seen_at)",
    ],
  },
  {
    version: 6,
    name: "room on each page of the resources for their changes (Postgres), so that a lifecycle step rewrites a row in place, without a new entry in each of its indexes",
    // A page filled to the brim moves each changed row to another page, and each index then
    // gets an entry for it. SQLite updates rows in place anyway.
    statements: ({ dialect }) =>
      dialect === "postgres" ? ["ALTER TABLE resources SET (fillfactor = 75)"] : [],
  },
  {
    version: 7,
    name: "failure rehearsal: a request log, fault rules and a rate limit per partner",
    statements: ({ serial }) => [
      // The partner's finished API requests (requests/), a batch of them a row (a JSON array of
      // `entries` entries), its newest REQUESTS_KEPT kept.
      `CREATE TABLE request_log (
        seq ${serial},
        partner TEXT NOT NULL,
        entries INTEGER NOT NULL,
        body TEXT NOT NULL
      )`,
      "CREATE INDEX request_log_partner ON request_log (partner, seq)",
      // Armed fault rules (faults/): `remaining` counts down a `times` rule (NULL for one by
      // probability), `draws` counts a probability rule's draws, so that every process draws the
      // same sequence.
      `CREATE TABLE faults (
        seq ${serial},
        partner TEXT NOT NULL,
        id TEXT NOT NULL,
        rule TEXT NOT NULL,
        remaining INTEGER,
        draws BIGINT NOT NULL DEFAULT 0,
        UNIQUE (partner, id)
      )`,
      // A partner's rate limit: GCRA, its theoretical arrival time in µs of sandbox time.
      `CREATE TABLE rate_limits (
        partner TEXT PRIMARY KEY,
        rule TEXT NOT NULL,
        interval_us BIGINT NOT NULL,
        burst INTEGER NOT NULL,
        tat_us BIGINT NOT NULL
      )`,
      // Moves whenever the partner's rules or rate limit change, read with its clock, so that a
      // process learns of a change another made without a query more per request.
      "ALTER TABLE sandbox_clock ADD COLUMN faults_version BIGINT NOT NULL DEFAULT 0",
    ],
  },
  {
    version: 8,
    name: "readiness: each partner's counters of what its integration has done (operations and statuses, topics delivered and acknowledged, states reached, faults recovered)",
    statements: () => [READINESS_COUNTS_TABLE],
  },
  {
    version: 9,
    name: "events as a log of their own: every event a change makes, with a cursor per partner in commit order",
    statements: () => [
      `CREATE TABLE event_log (
        partner TEXT NOT NULL,
        n BIGINT NOT NULL,
        id TEXT NOT NULL,
        topic TEXT NOT NULL,
        customer_id TEXT,
        body TEXT NOT NULL,
        PRIMARY KEY (partner, n)
      )`,
      // The partner's last cursor given: kept through a reset, so that cursors never go back.
      "CREATE TABLE event_cursors (partner TEXT PRIMARY KEY, last BIGINT NOT NULL)",
    ],
  },
  {
    version: 10,
    name: "webhook deliveries held by the process sending them (Postgres), so that a process that dies sends again only those it had in flight",
    // Who holds a job and until when (ms, the database's clock): see postgres-held-jobs.ts.
    // Room on each page, so that marking a job held rewrites its row in place, without a new
    // entry in its indexes (as migration 6 for the resources). SQLite has one process, whose
    // jobs are its own.
    statements: ({ dialect }) =>
      dialect === "postgres"
        ? [
            "ALTER TABLE scheduled_work ADD COLUMN held_by TEXT",
            "ALTER TABLE scheduled_work ADD COLUMN held_until BIGINT",
            "ALTER TABLE scheduled_work SET (fillfactor = 75)",
          ]
        : [],
  },
  {
    version: 11,
    name: "the request log's batches numbered per partner, so that an entry's id tells nothing of other partners' requests",
    // `n` is the partner's own count of batches; the rows kept number on from their `seq`, so
    // that the ids already given stay theirs.
    statements: () => [
      "ALTER TABLE request_log ADD COLUMN n BIGINT NOT NULL DEFAULT 0",
      "UPDATE request_log SET n = seq",
      "DROP INDEX request_log_partner",
      "CREATE UNIQUE INDEX request_log_partner_n ON request_log (partner, n)",
    ],
  },
  {
    version: 12,
    name: "idempotency keys by partner and age, so that a claim purges its own partner's old keys only",
    statements: () => [
      "DROP INDEX IF EXISTS idempotency_age",
      "DROP INDEX IF EXISTS idempotency_unanswered",
      "CREATE INDEX idempotency_age ON idempotency (partner, created_at)",
      "CREATE INDEX idempotency_unanswered ON idempotency (partner, created_at) WHERE answer IS NULL",
    ],
  },
  {
    version: 13,
    name: "search_term's index of each row's text behind its partner's and collection's mark, so that a search reads the caller's rows only",
    // SQLite's index is made again empty: each partner's searches index their own rows again,
    // with their mark. Postgres has no such index.
    statements: ({ dialect }) =>
      dialect === "sqlite"
        ? [
            "DROP TABLE resources_search",
            `CREATE VIRTUAL TABLE resources_search USING fts5(search, tokenize = "trigram case_sensitive 1")`,
          ]
        : [],
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
