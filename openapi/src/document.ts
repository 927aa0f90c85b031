// Reads the hand-authored spec for the tools and tests that are generated from it.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseYaml } from "./parse-once.ts";

export type OpenApiDocument = {
  openapi: string;
  info: Record<string, unknown> & { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
};

export type Parameter = {
  name: string;
  in: "query" | "header" | "path" | "cookie";
  required?: boolean;
  description?: string;
  schema?: Record<string, unknown>;
  [key: string]: unknown;
};

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI operation object is open-ended JSON
export type OperationObject = Record<string, any>;

export type OperationEntry = {
  method: string;
  path: string;
  operationId: string;
  tag: string | undefined;
  operation: OperationObject;
  parameters: Parameter[];
};

export const specPath = fileURLToPath(new URL("../partner-payments.yaml", import.meta.url));

/**
 * The test-mode document: the sandbox's own routes under /_sandbox/. Its enums that are the API's
 * own are `$ref`s into partner-payments.yaml, next to it.
 */
export const testModeSpecPath = fileURLToPath(new URL("../test-mode.yaml", import.meta.url));

export const HTTP_METHODS: readonly string[] = [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
];

export function loadSpec(path = specPath): OpenApiDocument {
  return parseYaml(readFileSync(path, "utf8")) as OpenApiDocument;
}

/** Follows a local `$ref` (`#/components/...`) to the node it names. */
export function resolveRef(doc: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`Only local $refs are supported, got ${ref}`);
  return ref
    .slice(2)
    .split("/")
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<unknown>((node, key) => {
      if (node === null || typeof node !== "object" || !(key in node)) {
        throw new Error(`Unresolvable $ref ${ref}`);
      }
      return (node as Record<string, unknown>)[key];
    }, doc);
}

/** The node itself, or the node its `$ref` points to (followed until it is no reference). */
// biome-ignore lint/suspicious/noExplicitAny: resolved nodes are open-ended JSON
export function deref(doc: OpenApiDocument, node: unknown): any {
  let current = node;
  while (
    current &&
    typeof current === "object" &&
    typeof (current as { $ref?: unknown }).$ref === "string"
  ) {
    current = resolveRef(doc, (current as { $ref: string }).$ref);
  }
  return current;
}

/** Every operation of the spec, in document order, with its parameters resolved. */
export function listOperations(doc: OpenApiDocument): OperationEntry[] {
  const operations: OperationEntry[] = [];
  for (const [path, pathItem] of Object.entries(doc.paths ?? {}) as [string, OperationObject][]) {
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!operation) continue;
      const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map(
        (parameter: unknown) => deref(doc, parameter) as Parameter,
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

/**
 * Whether the operation answers a stream that does not end (Server-Sent Events, such as the
 * sandbox's event stream): no whole answer to wait for, so the MCP server makes no tool of it.
 */
export function answersStream(doc: OpenApiDocument, entry: OperationEntry): boolean {
  const responses = (entry.operation.responses ?? {}) as Record<string, unknown>;
  return Object.entries(responses).some(
    ([code, response]) =>
      /^2/.test(code) && deref(doc, response)?.content?.["text/event-stream"] !== undefined,
  );
}

const firstValue = (record: Record<string, unknown> | undefined) =>
  record ? Object.values(record)[0] : undefined;

/** A schema's own example: `example`, the first `examples` entry, `default` or the first enum value. */
export function schemaExample(doc: OpenApiDocument, schemaNode: unknown): unknown {
  const schema = deref(doc, schemaNode) ?? {};
  return schema.example ?? schema.examples?.[0] ?? schema.default ?? schema.enum?.[0];
}

/** A parameter's example: its own, its first named example, or its schema's. */
export function parameterExample(doc: OpenApiDocument, parameter: Parameter): unknown {
  if (parameter.example !== undefined) return parameter.example;
  const named = firstValue(parameter.examples as Record<string, unknown> | undefined);
  if (named !== undefined) return deref(doc, named).value;
  return schemaExample(doc, parameter.schema);
}

/** The example of an operation's JSON request body (its first named one), if it has both. */
export function requestBodyExample(doc: OpenApiDocument, operation: OperationObject): unknown {
  const media = deref(doc, operation.requestBody)?.content?.["application/json"];
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const named = firstValue(media.examples);
  return named === undefined ? undefined : deref(doc, named).value;
}

const SAMPLE_UUID = "6b1d3f5a-7c9e-4b2d-8f1a-3c5e7a9b1d2f";

/** A value that fits the schema: its example when it has one, else one made from its type. */
export function sampleValue(doc: OpenApiDocument, schemaNode: unknown): unknown {
  const example = schemaExample(doc, schemaNode);
  if (example !== undefined) return example;
  const schema = deref(doc, schemaNode) ?? {};
  if (schema.format === "uuid") return SAMPLE_UUID;
  if (schema.type === "integer" || schema.type === "number") return schema.minimum ?? 1;
  if (schema.type === "boolean") return false;
  if (schema.type === "array") return [sampleValue(doc, schema.items)];
  return "sample";
}
