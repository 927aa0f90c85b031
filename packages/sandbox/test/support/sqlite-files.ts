// SQLite store files for one test file: each in a temp folder of the file's own, every store
// closed and the folder removed once the file's tests are done.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { dataFromSeed } from "../../src/seed/index.js";
import { openStore } from "../../src/store/open-store.js";
import type { SandboxStore } from "../../src/store/store.js";

/** Opens a new store on a file named `file` in the test file's folder (`name` names the folder). */
export function sqliteFiles(name: string): (file: string) => Promise<SandboxStore> {
  const dir = mkdtempSync(join(tmpdir(), `payments-sandbox-${name}-`));
  const stores: SandboxStore[] = [];
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    rmSync(dir, { recursive: true, force: true });
  });
  return async (file) => {
    const store = await openStore(
      join(dir, file),
      () => dataFromSeed({}),
      () => {},
    );
    stores.push(store);
    return store;
  };
}
