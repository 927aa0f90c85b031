// The spec's operations as Prism reads them, stored: reading a spec (YAML, $refs, OpenAPI into
// Prism's model) takes more of the mock's start than anything but loading Prism itself, so the
// build reads the spec the package ships and stores the result next to it. `node:v8`'s
// serialisation keeps the objects that several operations share shared, as Prism read them.
import { createHash } from "node:crypto";
import { deserialize, serialize } from "node:v8";
import type { Operations } from "./prism-adapter.js";

type Snapshot = { specSha256: string; operations: Operations };

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The stored form of the operations read from a spec whose text is `specText`. */
export function operationsSnapshot(specText: string, operations: Operations): Buffer {
  return serialize({ specSha256: sha256(specText), operations } satisfies Snapshot);
}

/** The stored operations, or undefined when they were read from another text than `specText`. */
export function operationsFromSnapshot(specText: string, stored: Buffer): Operations | undefined {
  const snapshot = deserialize(stored) as Snapshot;
  return snapshot.specSha256 === sha256(specText) ? snapshot.operations : undefined;
}
