// The store a test of test/stores runs on, by its vitest project (vitest.config.ts): memory, a
// SQLite file in a temp dir, or a new database of the test Postgres.
import { join } from "node:path";
import { createDatabase } from "@org/payments-testing";
import { inject } from "vitest";
import { dataFromSeed } from "../../src/seed/index.js";
import { openStore } from "../../src/store/open-store.js";
import type { SandboxStore } from "../../src/store/store.js";

declare module "vitest" {
  export interface ProvidedContext {
    sandboxStore: "memory" | "sqlite" | "postgres";
    /** The test Postgres's server URL, in the Postgres project. */
    postgresUrl: string;
  }
}

/** A `state` for a new store on this project's store: none for memory. */
async function newState(dir: string, name = "state.db"): Promise<string | undefined> {
  const store = inject("sandboxStore");
  if (store === "memory") return undefined;
  return store === "postgres" ? createDatabase(inject("postgresUrl")) : join(dir, name);
}

/**
 * A `state` that outlives the process, for the restart tests: a new Postgres database in the
 * Postgres project, a SQLite file in `dir` otherwise (memory cannot outlive its process).
 */
export async function persistentState(dir: string, name: string): Promise<string> {
  return inject("sandboxStore") === "postgres"
    ? createDatabase(inject("postgresUrl"))
    : join(dir, name);
}

/** A new store on this project's store holding no data; the caller closes it. */
export async function openEmptyStore(dir: string, name?: string): Promise<SandboxStore> {
  return openStore(
    await newState(dir, name),
    () => dataFromSeed({}),
    () => {},
  );
}
