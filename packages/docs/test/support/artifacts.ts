// Where the browser tests put their screenshots. With TEST_ARTIFACTS_DIR set (CI keeps them as
// the run's artifacts), in its `docs/` folder; otherwise in a temporary folder removed after the
// file's tests, so that a run leaves nothing in the checkout or the temp folder.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

/** A folder for this test file's screenshots; call it at the top level of the file. */
export function artifactsFolder(): string {
  const kept = process.env.TEST_ARTIFACTS_DIR;
  if (kept) {
    const folder = path.join(path.resolve(kept), "docs");
    mkdirSync(folder, { recursive: true });
    return folder;
  }
  const folder = mkdtempSync(path.join(tmpdir(), "payments-docs-screenshots-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}
