// Generates src/generated/tools.ts: one MCP tool per operation of the API's spec and of the
// sandbox's test-mode document. Run: `pnpm generate`.
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  answersStream,
  deprecationNotice,
  deprecationOf,
  deref,
  listOperations,
  loadBundledSpec,
  loadSpec,
  type OpenApiDocument,
  type OperationEntry,
  type Parameter,
  testModeSpecPath,
} from "@org/payments-spec";
import { emitGenerated } from "@org/payments-spec/codegen";
import type {
  ArgumentPlace,
  JsonSchema,
  ToolAnnotations,
  ToolDefinition,
  ToolGroup,
} from "../src/tool-definition.ts";
import { compactInputSchema, oneLine } from "./compact.ts";
import { SchemaConverter } from "./json-schema.ts";

export type Source = { group: ToolGroup; doc: OpenApiDocument };

/** The documents tools are made from: the API's, and the sandbox's test mode (made whole). */
export function loadSources(): Source[] {
  return [
    { group: "api", doc: loadSpec() },
    { group: "test-mode", doc: loadBundledSpec(testModeSpecPath) },
  ];
}

/** `X-SUB-PARTNER-ID` → `sub_partner_id`, `IDEMPOTENCY-KEY` → `idempotency_key`. */
export const headerArgument = (header: string): string =>
  header
    .toLowerCase()
    .replace(/^x-/, "")
    .replace(/[^a-z0-9]+/g, "_");

const IDEMPOTENCY_HEADER = "idempotency-key";
/** The methods a tool sends (PUT and DELETE are the test mode's). */
const SENT_METHODS: readonly ToolDefinition["method"][] = ["GET", "POST", "PATCH", "PUT", "DELETE"];
/** POSTs that destroy rather than add: the method cannot tell. */
const DESTRUCTIVE_POSTS = new Set(["resetSandbox"]);

/**
 * The hints, each stated only where it differs from MCP's default (not read-only, destructive,
 * not idempotent, open world): a client reads the default where a hint is absent.
 */
function annotationsOf(operationId: string, method: string, group: ToolGroup): ToolAnnotations {
  const read = method === "GET";
  const annotations: ToolAnnotations = { readOnlyHint: read };
  if (!read) {
    // A PATCH or PUT overwrites what it names, a DELETE removes it; a POST adds (or, in test
    // mode, moves a simulation on).
    const destructive = method !== "POST" || DESTRUCTIVE_POSTS.has(operationId);
    if (!destructive) annotations.destructiveHint = false;
    if (method !== "POST") annotations.idempotentHint = true;
  }
  // The API is a service beyond this machine; the test-mode routes act on the sandbox alone.
  if (group === "test-mode") annotations.openWorldHint = false;
  return annotations;
}

/** The parameter's schema with the parameter's own description and example. */
function parameterSchema(converter: SchemaConverter, parameter: Parameter): JsonSchema {
  const schema = converter.convert(parameter.schema ?? {});
  const description = parameter.description?.trim() ?? schema.description;
  const example = parameter.example;
  return {
    ...schema,
    ...(description !== undefined && { description }),
    ...(example !== undefined && schema.examples === undefined && { examples: [example] }),
  };
}

/** The 2xx response's JSON schema, if the operation answers JSON. */
function successSchema(doc: OpenApiDocument, entry: OperationEntry): unknown {
  const responses = (entry.operation.responses ?? {}) as Record<string, unknown>;
  const status = Object.keys(responses).find((code) => /^2(\d\d|XX)$/i.test(code));
  if (status === undefined) return undefined;
  return deref(doc, responses[status])?.content?.["application/json"]?.schema;
}

/** Whether a converted schema describes an object (so it can be structured content as is). */
function isObjectSchema(schema: JsonSchema, defs: JsonSchema | undefined): boolean {
  const target =
    typeof schema.$ref === "string"
      ? (defs?.[schema.$ref.replace("#/$defs/", "")] as JsonSchema | undefined)
      : schema;
  if (!target) return false;
  if (target.type === "object" || target.properties !== undefined) return true;
  const parts = target.allOf as JsonSchema[] | undefined;
  return parts?.some((part) => isObjectSchema(part, defs)) ?? false;
}

function outputOf(doc: OpenApiDocument, entry: OperationEntry) {
  const schema = successSchema(doc, entry);
  if (schema === undefined) return { output: "none" as const };
  const converter = new SchemaConverter(doc, "defs");
  // The root is inlined one level: MCP wants `type: "object"` on the output schema itself.
  const root = converter.convert(deref(doc, schema));
  const defs = converter.takeDefs();
  const withDefs = (body: JsonSchema & { type: "object" }) => ({
    ...body,
    ...(defs && { $defs: defs }),
  });
  if (isObjectSchema(root, defs)) {
    return {
      output: "object" as const,
      outputSchema: withDefs({ ...root, type: "object" as const }),
    };
  }
  return {
    output: "wrapped" as const,
    outputSchema: withDefs({
      type: "object" as const,
      description: "The answer, which is not a JSON object, as `result`.",
      required: ["result"],
      properties: { result: root },
    }),
  };
}

/**
 * The spec's description, on as few lines as it reads, after the deprecation notice (its sunset
 * and replacement) of a deprecated operation. What the server adds to every tool of a
 * kind (paging, the write rules, idempotency) is said once, in the server's instructions and in
 * the arguments it concerns, not in each description.
 */
function describeTool(entry: OperationEntry): string {
  const { operation } = entry;
  const description = oneLine(String(operation.description ?? operation.summary ?? ""));
  const deprecation = deprecationOf(operation);
  if (deprecation === undefined) return description;
  // First, so that an agent reading the list sees it before choosing the tool.
  return ["Deprecated:", deprecationNotice(deprecation), description].filter(Boolean).join(" ");
}

/**
 * Parameters whose meaning every tool shares (paging, the sub-partner header, the idempotency
 * key): the server's instructions say it once, so their schemas carry no description.
 */
const SAID_ONCE: Record<string, ReadonlySet<string>> = {
  query: new Set(["cursor", "prev_cursor", "page_size"]),
  header: new Set(["sub_partner_id", "idempotency_key"]),
};

/** The schema without its description, when the instructions say what it is. */
function saidOnce(place: string, name: string, schema: JsonSchema): JsonSchema {
  if (!SAID_ONCE[place]?.has(name)) return schema;
  const { description: _said, ...rest } = schema;
  return rest;
}

export function toolOf(doc: OpenApiDocument, group: ToolGroup, entry: OperationEntry) {
  const { operation, operationId } = entry;
  const where = `${entry.method.toUpperCase()} ${entry.path}`;
  if (!operationId) throw new Error(`${where} has no operationId`);
  const converter = new SchemaConverter(doc, "inline");
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const places: Record<string, ArgumentPlace> = {};
  let idempotencyArgument: string | undefined;
  const add = (
    name: string,
    place: ArgumentPlace | undefined,
    schema: JsonSchema,
    isRequired: boolean,
  ) => {
    if (name in properties) throw new Error(`${operationId}: two arguments named ${name}`);
    properties[name] = schema;
    // `all_pages` has no place in the request: the server acts on it.
    if (place) places[name] = place;
    if (isRequired) required.push(name);
  };

  for (const parameter of entry.parameters) {
    if (parameter.in === "cookie") throw new Error(`${operationId}: cookie parameters unsupported`);
    const schema = saidOnce(parameter.in, parameter.name, parameterSchema(converter, parameter));
    if (parameter.in !== "header") {
      add(parameter.name, { in: parameter.in, name: parameter.name }, schema, !!parameter.required);
      continue;
    }
    const name = headerArgument(parameter.name);
    const place = { in: "header", name: parameter.name } as const;
    const described = SAID_ONCE.header?.has(name)
      ? saidOnce("header", name, schema)
      : { ...schema, description: `${schema.description ?? ""} Sent as ${parameter.name}.`.trim() };
    if (parameter.name.toLowerCase() === IDEMPOTENCY_HEADER) {
      idempotencyArgument = name;
      add(name, place, described, false);
    } else {
      add(name, place, described, !!parameter.required);
    }
  }

  const requestBody = deref(doc, operation.requestBody);
  const bodySchema = requestBody?.content?.["application/json"]?.schema;
  let rules: JsonSchema = {};
  if (bodySchema !== undefined) {
    const body = converter.convert(bodySchema);
    const bodyRequired = requestBody.required === true;
    const flat = flatBody(body);
    if (
      flat !== undefined &&
      Object.keys(flat.fields).every((name) => !(name in properties) && name !== "all_pages")
    ) {
      const needed = new Set(bodyRequired ? flat.required : []);
      for (const [name, schema] of Object.entries(flat.fields)) {
        add(name, { in: "body", name }, schema, needed.has(name));
      }
      rules = flat.rules;
    } else {
      add("body", { in: "body-whole" }, body, bodyRequired);
    }
  }

  const pages = entry.parameters.some((p) => p.in === "query" && p.name === "cursor");
  if (pages) {
    add("all_pages", undefined, { type: "boolean", default: false }, false);
  }

  const method = entry.method.toUpperCase();
  if (!SENT_METHODS.includes(method as ToolDefinition["method"])) {
    throw new Error(`${operationId}: ${method} is not a method the client sends (${SENT_METHODS})`);
  }
  const inputSchema = {
    type: "object" as const,
    properties,
    ...(required.length > 0 && { required }),
    additionalProperties: false,
    ...rules,
  };
  const tool: ToolDefinition = {
    name: operationId,
    group,
    tag: entry.tag ?? group,
    title: String(operation.summary ?? operationId),
    description: describeTool(entry),
    method: method as ToolDefinition["method"],
    path: entry.path,
    annotations: annotationsOf(operationId, method, group),
    inputSchema,
    listedInputSchema: compactInputSchema(inputSchema),
    ...outputOf(doc, entry),
    arguments: places,
    pages,
    ...(idempotencyArgument !== undefined && { idempotencyArgument }),
  };
  return tool;
}

/** The rules of a body about its fields together, which hold as well of the flattened arguments. */
const FIELD_RULES = ["allOf", "oneOf", "anyOf", "not", "if", "then", "else"] as const;

/**
 * A JSON body's fields as arguments of their own, with its rules about them together (one of
 * two fields, not both of two, a field's enum unless another is set); undefined for a body that
 * stays one argument: one that takes any other field (a whole quote, say), whose fields could not
 * be told from mistyped arguments, or whose rules are not about its own fields.
 */
function flatBody(
  body: JsonSchema,
): { fields: Record<string, JsonSchema>; required: string[]; rules: JsonSchema } | undefined {
  const closed = (schema: JsonSchema) =>
    schema.type === "object" &&
    typeof schema.properties === "object" &&
    schema.properties !== null &&
    schema.additionalProperties === false;
  const alternatives = body.oneOf as JsonSchema[] | undefined;
  if (body.type === undefined && Array.isArray(alternatives) && alternatives.every(closed)) {
    // One of several closed objects with fields of their own: the fields side by side, and one
    // alternative's required fields without another's.
    const fieldsOf = (schema: JsonSchema) => Object.keys(schema.properties as object);
    const names = alternatives.flatMap(fieldsOf);
    if (new Set(names).size !== names.length) return undefined;
    const oneOf = alternatives.map((alternative) => {
      const others = names.filter((name) => !fieldsOf(alternative).includes(name));
      return {
        required: alternative.required ?? [],
        ...(others.length > 0 && { not: { anyOf: others.map((name) => ({ required: [name] })) } }),
      };
    });
    const fields = Object.assign({}, ...alternatives.map((a) => a.properties)) as Record<
      string,
      JsonSchema
    >;
    return { fields, required: [], rules: { oneOf } };
  }
  const open = body.additionalProperties !== undefined && body.additionalProperties !== false;
  if (body.type !== "object" || body.properties === undefined || open) {
    return undefined;
  }
  const fields = body.properties as Record<string, JsonSchema>;
  const rules = Object.fromEntries(
    FIELD_RULES.filter((keyword) => keyword in body).map((keyword) => [keyword, body[keyword]]),
  );
  // A rule that names only the body's fields, and closes no object, says the same of the arguments.
  const named = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.every(named);
    if (typeof node !== "object" || node === null) return true;
    const schema = node as JsonSchema;
    if (
      // `additionalProperties: true` closes nothing; any other would close the arguments.
      ("additionalProperties" in schema && schema.additionalProperties !== true) ||
      ("properties" in schema &&
        Object.keys(schema.properties as object).some((name) => !(name in fields)))
    ) {
      return false;
    }
    const required = (schema.required as string[] | undefined) ?? [];
    return (
      required.every((name) => name in fields) &&
      FIELD_RULES.every((keyword) => named(schema[keyword]))
    );
  };
  if (!FIELD_RULES.every((keyword) => named(rules[keyword]))) return undefined;
  return { fields, required: (body.required as string[] | undefined) ?? [], rules };
}

export function buildTools(sources: Source[]): ToolDefinition[] {
  const tools = sources.flatMap(({ group, doc }) =>
    listOperations(doc)
      .filter((entry) => !answersStream(doc, entry))
      .map((entry) => toolOf(doc, group, entry)),
  );
  const names = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.name)) throw new Error(`two operations named ${tool.name}`);
    names.add(tool.name);
  }
  return tools;
}

const HEADER =
  "// Generated by scripts/generate.ts from the partner payments spec and the test-mode document — do not edit.\n";

/** The marker in the test-mode document's `info` that the sandbox serves: ours, not a lookalike. */
export const SANDBOX_MARKER = "x-payments-sandbox";

/** What a served test-mode document must say of itself to be the sandbox's. */
function identityOf(sources: Source[]) {
  const info = sources.find(({ group }) => group === "test-mode")?.doc.info as
    | Record<string, unknown>
    | undefined;
  const marker = info?.[SANDBOX_MARKER];
  if (typeof info?.title !== "string" || typeof marker !== "string") {
    throw new Error(`the test-mode document's info needs its title and ${SANDBOX_MARKER}`);
  }
  return { title: info.title, marker: { name: SANDBOX_MARKER, value: marker } };
}

export function render(sources: Source[]): Record<string, string> {
  const tools = buildTools(sources);
  return {
    "tools.ts": `${HEADER}
import type { ToolDefinition } from "../tool-definition.js";

/** The test-mode document's identity: a sandbox serves a document that says this of itself. */
export const testModeIdentity = ${JSON.stringify(identityOf(sources), null, 2)} as const;

/** One tool per operation: the API's, then the test mode's. */
export const tools: readonly ToolDefinition[] = ${JSON.stringify(tools, null, 2)};
`,
  };
}

export const generatedDir = fileURLToPath(new URL("../src/generated/", import.meta.url));

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  emitGenerated(generatedDir, render(loadSources()), {
    regenerate: "pnpm --filter @org/payments-mcp generate",
  });
}
