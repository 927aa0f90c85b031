// The sandbox in Postgres through node-postgres (pg), so that any number of mock processes share
// one sandbox. Each request is one transaction on a pooled connection; a second request with an
// idempotency key waits on the first's row; each job scheduled on the sandbox clock is taken by
// one process: a batch of timed steps with FOR UPDATE SKIP LOCKED, locked until its outcome is
// recorded; a batch of webhook deliveries held (postgres-held-jobs.ts) until each is recorded.

import type { Pool, PoolClient } from "pg";
import { realNow } from "../clock/index.js";
import { EventNotifications } from "./event-notifications.js";
import { EXAMPLE_PARTNER_ID } from "./partner.js";
import { postgresBatch } from "./postgres-batch.js";
import { postgresHeldJobs } from "./postgres-held-jobs.js";
import type { SandboxData } from "./sandbox-data.js";
import { type Ddl, migrate, migratedLine, type VersionRecord } from "./schema-migrations.js";
import type { Query } from "./sql-query.js";
import {
  type Dialect,
  dueJobs,
  duePartners,
  purgeIdle,
  removeJobs,
  sqlTransaction,
  upkeepOf,
} from "./sql-store.js";
import type { SandboxStore } from "./store.js";

/** Whether `state` names a Postgres database rather than a file. */
export function isPostgresUrl(state: string): boolean {
  return /^postgres(ql)?:\/\//i.test(state);
}

/** The URL without its password, for logs and errors. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return "postgres://(unparsable URL)";
  }
}

/** Rows a transaction reads and then changes are locked; search scans (no trigram extension needed). */
/** Any fixed number: the advisory lock that lets one starting process migrate the schema. */
export const SCHEMA_LOCK = 4_823_017;
/** Another: the advisory lock that makes new partners one at a time, to count them. */
const PARTNERS_LOCK = 4_823_018;

export const POSTGRES: Dialect = {
  lockRows: " FOR UPDATE",
  skipLocked: " FOR UPDATE SKIP LOCKED",
  partnersLock: `SELECT pg_advisory_xact_lock(${PARTNERS_LOCK})`,
  eventsChannel: true,
  json: {
    text: (path) => `(CAST(body AS jsonb) #>> '{${path.join(",")}}')`,
    isTrue: (path) => `(CAST(body AS jsonb) #> '{${path.join(",")}}') = 'true'::jsonb`,
  },
};

const POSTGRES_DDL: Ddl = {
  dialect: "postgres",
  serial: "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
};

/**
 * @param log where the line saying that an existing database was migrated goes
 */
export async function openPostgresStore(
  url: string,
  initial: () => SandboxData,
  log: (line: string) => void = () => {},
  { counting = true }: { counting?: boolean } = {},
): Promise<SandboxStore> {
  const { default: pg } = await import("pg");
  const pool: Pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection that breaks is replaced at its next use; it must not crash the process.
  pool.on("error", () => {});
  const what = `sandbox database ${redactedUrl(url)}`;
  const upkeep = upkeepOf();
  try {
    const migrated = await withClient(pool, (client) =>
      inTransaction(client, async (query) => {
        // Processes starting together migrate one after another; the later ones find it done.
        await query(`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`);
        await query("CREATE TABLE IF NOT EXISTS sandbox_schema (version INTEGER NOT NULL)");
        const done = await migrate(query, POSTGRES_DDL, schemaTable(query), what);
        if (done.from === 0) {
          const unlocked = { ...POSTGRES, lockRows: "", skipLocked: "" };
          const example = sqlTransaction(query, unlocked, upkeep, EXAMPLE_PARTNER_ID);
          await example.enter(realNow());
          await example.fill(initial());
        }
        return done;
      }),
    );
    const line = migratedLine(what, migrated);
    if (line !== undefined) log(line);
  } catch (error) {
    await pool.end();
    const message = (error as Error).message;
    if (message.startsWith(`The ${what}`)) throw error;
    throw new Error(`The ${what} cannot be used: ${message}`, { cause: error });
  }

  const notifications = new EventNotifications(() => new pg.Client({ connectionString: url }));
  const held = postgresHeldJobs(
    {
      statement: (text, params) =>
        unlessDeadlocked(() =>
          withClient(
            pool,
            async (client) => (await client.query(text, params?.map(withoutNul))).rows,
          ),
        ),
      transaction: (work) =>
        unlessDeadlocked(() => withClient(pool, (client) => inTransaction(client, work))),
    },
    POSTGRES,
    upkeep,
    counting,
  );
  const store: SandboxStore = {
    shared: true,
    version: () => undefined,
    transaction: (partner, work) =>
      unlessDeadlocked(() =>
        withClient(pool, (client) =>
          inTransaction(client, async (query) => {
            const tx = sqlTransaction(query, POSTGRES, upkeep, partner, undefined, counting);
            const result = await work(tx);
            await tx.writeEvents();
            return result;
          }),
        ),
      ),
    // Each transaction has a connection of its own: a read waits for no other.
    read: (partner, work) => store.transaction(partner, work),
    // The batch stays locked (FOR UPDATE SKIP LOCKED, one round trip) until its transaction
    // ends: other processes pass it by and take the jobs after it, and when this one dies its
    // connection's end unlocks the batch for them.
    runBatch: (partner, kind, upTo, limit, perform) =>
      unlessDeadlocked(() =>
        withClient(pool, (client) =>
          inTransaction(client, async (query) => {
            const jobs = await dueJobs(query, partner, kind, upTo, limit, POSTGRES.skipLocked);
            if (jobs.length === 0) return 0;
            const finish = await perform(jobs);
            const batch = postgresBatch(query, POSTGRES, upkeep, partner, counting);
            // A step's subject is a resource; a delivery's is an event.
            if (kind === "step") await batch.load(jobs.map((job) => job.subject));
            const done = await finish(batch);
            await batch.flush();
            // Last: the partner's event counter stays locked from here until the commit.
            await batch.writeEvents();
            await removeJobs(query, jobs.slice(0, done));
            return done;
          }),
        ),
      ),
    holdJobs: held.holdJobs,
    duePartners: (now) =>
      withClient(pool, (client) => inTransaction(client, (query) => duePartners(query, now))),
    onEventsCommitted: (listener) => notifications.listen(listener),
    purgeIdle: (seenBefore) =>
      withClient(pool, (client) =>
        inTransaction(client, (query) => purgeIdle(query, undefined, seenBefore)),
      ),
    close: async () => {
      held.stop();
      await notifications.close();
      await pool.end();
    },
  };
  return store;
}

/** Postgres keeps the schema version in a table of one row. */
function schemaTable(query: Query): VersionRecord {
  return {
    async read() {
      const [row] = await query("SELECT version FROM sandbox_schema");
      return row === undefined ? 0 : Number(row.version);
    },
    async write(version) {
      await query("DELETE FROM sandbox_schema");
      await query("INSERT INTO sandbox_schema (version) VALUES ($1)", [version]);
    },
  };
}

/** A transaction that Postgres ended to break a deadlock is run again, this often at most. */
const DEADLOCK_ATTEMPTS = 3;

/**
 * Runs `work` again when Postgres chose its transaction to break a deadlock (two processes'
 * batches, a batch and a request, or two requests, each holding a row the other waits for): its
 * changes were rolled back, so running it again is what the client or the next advance would do,
 * but without failing this request or this advance. Work does all it keeps through the
 * transaction; what it does beside it (a kick of the scheduler, a draw of the delivery chaos)
 * is harmless twice.
 */
async function unlessDeadlocked<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const deadlocked = (error as { code?: unknown }).code === "40P01";
      if (!deadlocked || attempt === DEADLOCK_ATTEMPTS) throw error;
    }
  }
}

async function withClient<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    return await work(client);
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    // A connection whose transaction failed mid-way is dropped rather than reused.
    client.release(broken);
  }
}

async function inTransaction<T>(client: PoolClient, work: (query: Query) => Promise<T>) {
  const query: Query = async (text, params) =>
    (await client.query(text, params?.map(withoutNul))).rows;
  await client.query("BEGIN");
  try {
    const result = await work(query);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/**
 * Postgres text cannot hold U+0000, which a client may send (in a name, a search term or a path
 * id): it is stored as U+FFFD instead of failing the request. JSON bodies escape it themselves.
 */
export function withoutNul(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNul);
  return typeof value === "string" ? value.replaceAll("\0", "\uFFFD") : value;
}
