// The sandbox in Postgres through node-postgres (pg), so that any number of mock processes share
// one sandbox. Each request is one transaction on a pooled connection; a second request with an
// idempotency key waits on the first's row; each outbox event is taken by one process with
// FOR UPDATE SKIP LOCKED and stays locked until its outcome is recorded.
import type { Pool, PoolClient } from "pg";
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
import type { SandboxStore } from "./store.js";
import { testModeStatements } from "./test-mode-schema.js";

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
const POSTGRES: Dialect = { lockRows: " FOR UPDATE", skipLocked: " FOR UPDATE SKIP LOCKED" };

/** An auto-increment primary key column, as Postgres spells it. */
const SERIAL = "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY";

/** Any fixed number: the advisory lock that lets one starting process create the schema. */
const SCHEMA_LOCK = 4_823_017;

export async function openPostgresStore(
  url: string,
  initial: () => SandboxData,
): Promise<SandboxStore> {
  const { default: pg } = await import("pg");
  const pool: Pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection that breaks is replaced at its next use; it must not crash the process.
  pool.on("error", () => {});
  const where = redactedUrl(url);
  const purgeDue = purgeSchedule();
  try {
    await withClient(pool, async (client) => {
      await inTransaction(client, async (query) => {
        await query(`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`);
        await query("CREATE TABLE IF NOT EXISTS sandbox_schema (version INTEGER NOT NULL)");
        const [row] = await query("SELECT version FROM sandbox_schema");
        const version = row === undefined ? 0 : Number(row.version);
        if (version > SCHEMA_VERSION) {
          throw new Error(
            `The sandbox database ${where} was set up by a newer payments-mock (schema ${version}; this one knows up to ${SCHEMA_VERSION}); upgrade payments-mock.`,
          );
        }
        if (version === SCHEMA_VERSION) {
          await query(UNANSWERED_KEYS_INDEX);
          for (const statement of testModeStatements(SERIAL)) await query(statement);
          await adoptOutbox(query);
          return;
        }
        for (const statement of [...schemaStatements(SERIAL), ...testModeStatements(SERIAL)]) {
          await query(statement);
        }
        await query("INSERT INTO sandbox_schema (version) VALUES ($1)", [SCHEMA_VERSION]);
        await sqlTransaction(query, { lockRows: "", skipLocked: "" }, purgeDue).replaceAll(
          initial(),
        );
      });
    });
  } catch (error) {
    await pool.end();
    const message = (error as Error).message;
    if (message.startsWith("The sandbox database")) throw error;
    throw new Error(`The sandbox database ${where} cannot be used: ${message}`, { cause: error });
  }

  const store: SandboxStore = {
    shared: true,
    transaction: (work) =>
      withClient(pool, (client) =>
        inTransaction(client, (query) => work(sqlTransaction(query, POSTGRES, purgeDue))),
      ),
    // The job stays locked (FOR UPDATE SKIP LOCKED) until its transaction ends: other processes
    // pass it by, and when this one dies its connection's end unlocks it for them.
    runNext: (upTo, perform) =>
      withClient(pool, (client) =>
        inTransaction(client, async (query) => {
          const job = await nextDueJob(query, upTo, POSTGRES.skipLocked);
          if (job === undefined) return false;
          const finish = await perform(job);
          await finish(sqlTransaction(query, POSTGRES, purgeDue));
          await removeJob(query, job.seq);
          return true;
        }),
      ),
    close: () => pool.end(),
  };
  return store;
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
function withoutNul(value: unknown): unknown {
  return typeof value === "string" ? value.replaceAll("\0", "\uFFFD") : value;
}
