// The store a test of test/stores runs on, by its vitest project (vitest.config.ts): memory, a
// SQLite file in a temp dir, a new database of the test Postgres, or the in-page sandbox's plain
// JavaScript store.
import { persistentState, sandboxStore } from "@org/payments-testing";
import { dataFromSeed } from "../../src/seed/index.js";
import { openMemoryStore } from "../../src/store/memory-store.js";
import { openStore } from "../../src/store/open-store.js";
import type { SandboxStore } from "../../src/store/store.js";

/** A new store on this project's store holding no data; the caller closes it. */
export async function openEmptyStore(dir: string, name = "state.db"): Promise<SandboxStore> {
  if (sandboxStore() === "javascript") return openMemoryStore(() => dataFromSeed({}));
  const state = sandboxStore() === "memory" ? undefined : await persistentState(dir, name);
  return openStore(
    state,
    () => dataFromSeed({}),
    () => {},
  );
}
