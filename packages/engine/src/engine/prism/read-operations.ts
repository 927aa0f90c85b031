// The spec's operations for the engine: the build's snapshot for the spec the package ships, and
// Prism's reading of any other spec, its OpenAPI reader loaded only then.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "yaml";
import { yamlProblem } from "../../values/index.js";
import { bundledOperationsPath, bundledSpecPath } from "./bundled-spec.js";
import { operationsFromSnapshot } from "./operations-snapshot.js";
import { type Operations, readSpecOperations } from "./prism-adapter.js";

/** The operations of the spec file, or of a document given as JSON (read from a copy). */
export async function readOperations(spec: string | object): Promise<Operations> {
  if (typeof spec !== "string") return readSpecOperations(structuredClone(spec));
  const stored = await storedOperations(spec);
  if (stored !== undefined) return stored;
  await refuseUnreadable(spec);
  return readSpecOperations(spec);
}

/**
 * Refuses a spec file that is not an OpenAPI document in YAML or JSON, before Prism reads it:
 * yaml limits how far aliases expand, where Prism's reader expands an alias bomb until the process
 * runs out of time or memory.
 */
async function refuseUnreadable(spec: string): Promise<void> {
  const text = await readFile(spec, "utf8").catch((error: Error) => {
    throw new Error(`The spec ${spec} cannot be read: ${error.message}`);
  });
  let doc: { openapi?: unknown; paths?: unknown } | null;
  try {
    doc = parse(text);
  } catch (error) {
    throw new Error(
      `The spec ${spec} is neither YAML nor JSON: ${yamlProblem((error as Error).message)}`,
    );
  }
  if (typeof doc?.openapi !== "string" || typeof doc.paths !== "object") {
    throw new Error(
      `The spec ${spec} is not an OpenAPI document (it needs \`openapi\` and \`paths\`)`,
    );
  }
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
