// The engine of the test-mode document (the /_sandbox/ routes), for the sandbox's control routes
// and for fixture runs. Prism's reading of the document is stored by the build next to the
// document's copy in dist/ (scripts/snapshot-operations.ts), as the spec's is: reading it loads
// Prism's OpenAPI reader and took a quarter of a `payments-mock fixtures` or `trigger` start.
import { readFile } from "node:fs/promises";
import {
  createPrismEngine,
  type Operations,
  operationsFromSnapshot,
  type PrismEngine,
  prismEngineOf,
} from "@org/payments-engine";
// The document alone, not the sandbox's index: a fixture run loads no sandbox.
import testModeDocument from "@org/payments-sandbox/test-mode.json" with { type: "json" };

/** The test-mode document's engine: from the build's snapshot, else by reading the document. */
export async function createTestModeEngine(): Promise<PrismEngine> {
  const stored = await storedOperations();
  return stored === undefined
    ? createPrismEngine(testModeDocument, false)
    : prismEngineOf(stored, false);
}

/** The snapshot's operations, when it was read from the very text of dist/test-mode.json. */
async function storedOperations(): Promise<Operations | undefined> {
  try {
    const [text, stored] = await Promise.all([
      readFile(new URL("./test-mode.json", import.meta.url), "utf8"),
      readFile(new URL("./test-mode.operations", import.meta.url)),
    ]);
    return operationsFromSnapshot(text, stored);
  } catch {
    // Not built (the sources, in tests), or a snapshot this Node cannot read: read the document.
    return undefined;
  }
}
