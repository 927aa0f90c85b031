// Starts a stateful sandbox for one test file, on a free port, on the store of the test project
// (vitest.config.ts): memory, a SQLite file in a temp dir, or a new database of the test Postgres.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { specPath } from "@org/payments-spec";
import { API_KEY, call, createDatabase, newKey } from "@org/payments-testing";
import { inject } from "vitest";
import { type MockOptions, type RunningSandbox, startMock } from "../../src/index.js";

declare module "vitest" {
  export interface ProvidedContext {
    sandboxStore: "memory" | "sqlite" | "postgres";
  }
}

/** The store this test project runs the sandbox tests on. */
export const sandboxStore = inject("sandboxStore");

/** A `state` for a new sandbox on this project's store: none for memory. */
async function newState(dir: string, name = "state.db"): Promise<string | undefined> {
  return sandboxStore === "memory" ? undefined : persistentState(dir, name);
}

/**
 * A `state` that outlives the process, for the restart tests: a new Postgres database in the
 * Postgres project, a SQLite file in `dir` otherwise (memory cannot outlive its process).
 */
export async function persistentState(dir: string, name: string): Promise<string> {
  return sandboxStore === "postgres" ? createDatabase(inject("postgresUrl")) : join(dir, name);
}

export interface TestSandbox {
  mock: RunningSandbox;
  url: string;
  /** Where its data is: undefined (memory), a SQLite file or a Postgres URL. */
  state: string | undefined;
  dir: string;
  stop(): Promise<void>;
}

export async function startSandbox(options: MockOptions = {}): Promise<TestSandbox> {
  const dir = mkdtempSync(join(tmpdir(), "payments-sandbox-"));
  let state: string | undefined;
  let mock: RunningSandbox;
  try {
    state = "state" in options ? options.state : await newState(dir);
    // The tests' key is the example key: its partner holds the seed, and the sandbox functions act on it.
    mock = await startMock({
      spec: specPath,
      state,
      apiKey: API_KEY,
      exampleKey: API_KEY,
      ...options,
      stateful: true,
    });
  } catch (error) {
    // A sandbox that does not start (as some tests expect) leaves no folder behind.
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    mock,
    url: mock.url,
    state,
    dir,
    async stop() {
      await mock.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function createCustomer(
  baseUrl: string,
  fields: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const answer = await call(baseUrl, "POST", "/customers", {
    body: { customer_type: "Person", email: "someone@example.com", ...fields },
    headers: { ...newKey(), ...headers },
  });
  if (answer.status !== 200) throw new Error(`create customer: ${JSON.stringify(answer.body)}`);
  return answer.body as { id: string; name: string; [field: string]: unknown };
}

export { call, newKey };
