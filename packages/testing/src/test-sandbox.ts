// A sandbox served for one test, on the store of its vitest project: memory, a SQLite file in a
// temp folder, or a new database of the run's Postgres. How the server starts is the caller's
// (the sandbox's tests serve the sandbox alone, the mock's, the MCP server's and the docs' tests
// start the mock), so this package depends on neither; the store, the folder and the cleanup are
// this helper's.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import { createDatabase } from "./postgres.ts";

/** Where a sandbox keeps its data (javascript: in memory, the in-page sandbox's store). */
export type SandboxStore = "memory" | "sqlite" | "postgres" | "javascript";

declare module "vitest" {
  export interface ProvidedContext {
    /** The store the project's sandboxes run on (a project's `provide`); memory when none. */
    sandboxStore: SandboxStore;
    /** The test Postgres's server URL, in a Postgres project (see startPostgres). */
    postgresUrl: string;
  }
}

/** The store of this test's vitest project: memory unless the project provides another. */
export function sandboxStore(): SandboxStore {
  return inject("sandboxStore") ?? "memory";
}

/**
 * A `state` that outlives the process, for the restart tests: a new Postgres database in a
 * Postgres project, a SQLite file in `dir` otherwise (memory cannot outlive its process).
 */
export async function persistentState(dir: string, name: string): Promise<string> {
  return sandboxStore() === "postgres" ? createDatabase(inject("postgresUrl")) : join(dir, name);
}

/** A new `state` on this project's store: none (memory), a SQLite file in `dir`, a database. */
async function newState(dir: string): Promise<string | undefined> {
  const store = sandboxStore();
  return store === "memory" || store === "javascript"
    ? undefined
    : persistentState(dir, "state.db");
}

/** A server that answers at `url` until it is stopped. */
export interface TestServer {
  url: string;
  stop(): Promise<void>;
}

export interface TestSandbox<Server extends TestServer> {
  /** The server `start` returned. */
  server: Server;
  url: string;
  /** Where its data is: undefined (memory), a SQLite file or a Postgres URL. */
  state: string | undefined;
  /** A temp folder of its own (`payments-*`), removed by `stop`. */
  dir: string;
  /** Stops the server, then removes the folder. */
  stop(): Promise<void>;
}

/**
 * Serves a sandbox with `start`, given its `state` on this project's store (or `options.state`,
 * also `undefined` for memory, when a test names one). A server that does not start (as some
 * tests expect) leaves no folder behind.
 */
export async function startTestSandbox<Server extends TestServer>(
  start: (state: string | undefined) => Promise<Server>,
  options: { state?: string | undefined } = {},
): Promise<TestSandbox<Server>> {
  const dir = mkdtempSync(join(tmpdir(), "payments-sandbox-"));
  let state: string | undefined;
  let server: Server;
  try {
    state = "state" in options ? options.state : await newState(dir);
    server = await start(state);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    server,
    url: server.url,
    state,
    dir,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
