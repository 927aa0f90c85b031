// The store a test of test/stores runs on, by its vitest project (vitest.config.ts): memory, a
// SQLite file in a temp dir, a new database of the test Postgres, or the in-page sandbox's plain
// JavaScript store.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { persistentState, sandboxStore } from "@org/payments-testing";
import { onTestFinished } from "vitest";
import { dataFromSeed } from "../../src/seed/index.js";
import { openMemoryStore } from "../../src/store/memory-store.js";
import { openStore } from "../../src/store/open-store.js";
import type { SandboxStore } from "../../src/store/store.js";

/**
 * A new store on this project's store holding no data, in a temp folder of its own: closed, and
 * its folder removed, when the test that opened it ends.
 */
export async function openEmptyStore(): Promise<SandboxStore> {
  const dir = mkdtempSync(join(tmpdir(), "payments-sandbox-store-"));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  try {
    const store =
      sandboxStore() === "javascript"
        ? await openMemoryStore(() => dataFromSeed({}))
        : await openStore(
            sandboxStore() === "memory" ? undefined : await persistentState(dir, "state.db"),
            () => dataFromSeed({}),
            () => {},
          );
    onTestFinished(async () => {
      await store.close();
      removeDir();
    });
    return store;
  } catch (error) {
    removeDir();
    throw error;
  }
}
