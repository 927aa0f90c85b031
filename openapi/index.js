// Reads the hand-authored spec for the tools and tests that are generated from it.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

export const specPath = fileURLToPath(new URL("./partner-payments.yaml", import.meta.url));

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

export function loadSpec(path = specPath) {
  return parse(readFileSync(path, "utf8"));
}

/** Follows a local `$ref` (`#/components/...`) to the node it names. */
export function resolveRef(doc, ref) {
  if (!ref.startsWith("#/")) throw new Error(`Only local $refs are supported, got ${ref}`);
  return ref
    .slice(2)
    .split("/")
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((node, key) => {
      if (node === undefined || !(key in node)) throw new Error(`Unresolvable $ref ${ref}`);
      return node[key];
    }, doc);
}

/** The node itself, or the node its `$ref` points to (followed until it is no reference). */
export function deref(doc, node) {
  let current = node;
  while (current && typeof current === "object" && typeof current.$ref === "string") {
    current = resolveRef(doc, current.$ref);
  }
  return current;
}

/** Every operation of the spec, in document order, with its parameters resolved. */
export function listOperations(doc) {
  const operations = [];
  for (const [path, pathItem] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!operation) continue;
      const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map(
        (parameter) => deref(doc, parameter),
      );
      operations.push({
        method,
        path,
        operationId: operation.operationId,
        tag: operation.tags?.[0],
        operation,
        parameters,
      });
    }
  }
  return operations;
}
