// The spec's operations for the engine: the build's snapshot for the spec the package ships, and
// Prism's reading of any other spec, its OpenAPI reader loaded only then.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { bundledOperationsPath, bundledSpecPath } from "./bundled-spec.js";
import { operationsFromSnapshot } from "./operations-snapshot.js";
import { type Operations, readSpecOperations } from "./prism-adapter.js";

/** The operations of the spec file, or of a document given as JSON (read from a copy). */
export async function readOperations(spec: string | object): Promise<Operations> {
  if (typeof spec !== "string") return readSpecOperations(structuredClone(spec));
  const stored = await storedOperations(spec);
  if (stored !== undefined) return stored;
  return readSpecOperations(spec);
}

/** The snapshot's operations when `spec` is the shipped spec, unchanged since the build. */
async function storedOperations(spec: string): Promise<Operations | undefined> {
  if (path.resolve(spec) !== bundledSpecPath()) return undefined;
  try {
    const [text, stored] = await Promise.all([
      readFile(spec, "utf8"),
      readFile(bundledOperationsPath()),
    ]);
    return operationsFromSnapshot(text, stored);
  } catch {
    // No snapshot (a build without one, or the sources in tests) or one this Node cannot read:
    // the spec is read as any other.
    return undefined;
  }
}
