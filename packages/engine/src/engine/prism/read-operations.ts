// The spec's operations for the engine: the build's snapshot for the spec the package ships, and
// Prism's reading of any other spec, its OpenAPI reader loaded only then.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { yamlProblem } from "../../values/index.js";
import { bundledOperationsPath, bundledSpecPath } from "./bundled-spec.js";
import { operationsFromSnapshot } from "./operations-snapshot.js";
import { type Operations, readSpecOperations } from "./prism-adapter.js";

/** The operations of the spec file, or of a document given as JSON (read from a copy). */
export async function readOperations(spec: string | object): Promise<Operations> {
  if (typeof spec !== "string") {
    const remote = remoteRefsIn(spec).next().value;
    if (remote !== undefined) throw new Error(`The spec document: ${remote}`);
    return readSpecOperations(structuredClone(spec));
  }
  const stored = await storedOperations(spec);
  if (stored !== undefined) return stored;
  await refuseRemoteRefs(spec, await refuseUnreadable(spec));
  return readSpecOperations(spec);
}

/**
 * Refuses a spec file that is not an OpenAPI document in YAML or JSON, before Prism reads it:
 * yaml limits how far aliases expand, where Prism's reader expands an alias bomb until the process
 * runs out of time or memory.
 */
async function refuseUnreadable(spec: string): Promise<unknown> {
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
  return doc;
}

/** A `$ref` to a URL of a scheme of its own (http:, https:…), which Prism's reader would fetch. */
const SCHEME = /^[a-z][a-z\d+.-]+:/i;

/**
 * Refuses a spec that `$ref`s a document at another host, in itself or in a file of its own that
 * it `$ref`s (followed from file to file): Prism's reader would fetch it, and nothing the mock
 * reads may load from another host. Files it cannot read are left for Prism to name.
 */
async function refuseRemoteRefs(spec: string, doc: unknown): Promise<void> {
  const main = path.resolve(spec);
  const read = new Set([main]);
  const pending: [string, unknown][] = [[main, doc]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [file, content] = next;
    const where = file === main ? "" : `${file}, which it $refs: `;
    const remote = remoteRefsIn(content).next().value;
    if (remote !== undefined) throw new Error(`The spec ${spec}: ${where}${remote}`);
    for (const target of fileRefsIn(content, file)) {
      if (read.has(target)) continue;
      read.add(target);
      const text = await readFile(target, "utf8").catch(() => undefined);
      if (text === undefined) continue;
      try {
        pending.push([target, parse(text)]);
      } catch {
        // Prism says what is wrong with it.
      }
    }
  }
}

/** Each `$ref` in `node` with its place, without recursion (a document may nest deeply). */
function* refsIn(node: unknown): Generator<{ ref: string; place: string }> {
  const pending: [unknown, string][] = [[node, "#"]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, place] = next;
    if (value === null || typeof value !== "object") continue;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === "string") yield { ref, place };
    for (const [key, item] of Object.entries(value)) {
      pending.push([item, `${place}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`]);
    }
  }
}

/** Why each `$ref` to another host is refused, with its place. */
function* remoteRefsIn(node: unknown): Generator<string> {
  for (const { ref, place } of refsIn(node)) {
    if (SCHEME.test(ref) && !/^file:/i.test(ref)) {
      yield `the $ref at ${place} is ${JSON.stringify(ref)}, at another host: the mock loads nothing from other hosts; save that document beside the spec and $ref it by its path, or bundle the spec into one file (redocly bundle)`;
    }
  }
}

/** The files of the spec's own that `$ref`s in `node` (a file's content) point into. */
function* fileRefsIn(node: unknown, file: string): Generator<string> {
  for (const { ref } of refsIn(node)) {
    const [target = ""] = ref.split("#");
    if (target === "" || (SCHEME.test(target) && !/^file:/i.test(target))) continue;
    try {
      yield /^file:/i.test(target)
        ? fileURLToPath(target)
        : path.resolve(path.dirname(file), decodeURI(target));
    } catch {
      // Not a path Prism can read either: it says so.
    }
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
