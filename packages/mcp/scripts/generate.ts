// Generates src/generated/tools.ts: one MCP tool per operation of the API's spec and of the
// sandbox's test-mode document. Run: `pnpm generate`.
import { fileURLToPath, pathToFileURL } from "node:url";
import {
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
import {
  ALL_PAGES_MAX_CHARACTERS,
  ALL_PAGES_PAGE_SIZE,
  ALLOW_WRITES_FLAG,
  IDEMPOTENCY_WINDOW_MS,
} from "../src/limits.ts";
import type {
  ArgumentPlace,
  JsonSchema,
  ToolDefinition,
  ToolGroup,
} from "../src/tool-definition.ts";
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
const minutes = IDEMPOTENCY_WINDOW_MS / 60_000;
/** The methods @org/payments-client sends. */
const SENT_METHODS: readonly ToolDefinition["method"][] = ["GET", "POST", "PATCH"];
/** POSTs that destroy rather than add: the method cannot tell. */
const DESTRUCTIVE_POSTS = new Set(["resetSandbox"]);

function annotationsOf(operationId: string, method: string, title: string, group: ToolGroup) {
  const read = method === "GET";
  return {
    title,
    readOnlyHint: read,
    // A PATCH overwrites what it names; a POST adds (or, in test mode, moves a simulation on).
    destructiveHint: method === "PATCH" || DESTRUCTIVE_POSTS.has(operationId),
    idempotentHint: read || method === "PATCH",
    // The API is a service beyond this machine; the test-mode routes act on the sandbox alone.
    openWorldHint: group === "api",
  };
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

function describeTool(
  entry: OperationEntry,
  group: ToolGroup,
  pages: boolean,
  idempotent: boolean,
): string {
  const { operation } = entry;
  const text = [String(operation.description ?? operation.summary ?? "").trim()];
  if (pages) {
    text.push(
      `Pages with \`cursor\` and \`page_size\`; \`all_pages: true\` follows the cursors and returns every item (${ALL_PAGES_PAGE_SIZE} a page unless \`page_size\` says otherwise), stopping before a page that would take the answer over ${ALL_PAGES_MAX_CHARACTERS.toLocaleString("en")} characters of JSON (the answer's \`cursor\` then continues).`,
    );
  }
  if (group === "test-mode") {
    text.push("A test-mode operation: listed and sent only when the base URL is a sandbox.");
  } else if (entry.method !== "get") {
    text.push(
      `A write: refused unless the base URL is a sandbox or the server was started with \`${ALLOW_WRITES_FLAG}\`.` +
        (idempotent
          ? ` Sent with an \`IDEMPOTENCY-KEY\`: a call repeated with the same arguments within ${minutes} minutes reuses the key, so the API does it once; pass a new \`idempotency_key\` to do it again on purpose.`
          : ""),
    );
  }
  return text.join("\n\n");
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
    const schema = parameterSchema(converter, parameter);
    if (parameter.in !== "header") {
      add(parameter.name, { in: parameter.in, name: parameter.name }, schema, !!parameter.required);
      continue;
    }
    const name = headerArgument(parameter.name);
    const note = `Sent as the \`${parameter.name}\` header.`;
    if (parameter.name.toLowerCase() === IDEMPOTENCY_HEADER) {
      idempotencyArgument = name;
      const made = `${note} Optional here: the server makes one, the same for a call repeated with the same arguments within ${minutes} minutes.`;
      add(name, { in: "header", name: parameter.name }, describe(schema, made), false);
    } else {
      add(
        name,
        { in: "header", name: parameter.name },
        describe(schema, note),
        !!parameter.required,
      );
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
    add(
      "all_pages",
      undefined,
      {
        type: "boolean",
        default: false,
        description: `Follow the cursors and return the items of every page, stopping before a page that would take the answer over ${ALL_PAGES_MAX_CHARACTERS.toLocaleString("en")} characters of JSON. Not an API parameter: the server pages for you.`,
      },
      false,
    );
  }

  const method = entry.method.toUpperCase();
  if (!SENT_METHODS.includes(method as ToolDefinition["method"])) {
    throw new Error(`${operationId}: ${method} is not a method the client sends (${SENT_METHODS})`);
  }
  const title = String(operation.summary ?? operationId);
  const tool: ToolDefinition = {
    name: operationId,
    group,
    tag: entry.tag ?? group,
    description: describeTool(entry, group, pages, idempotencyArgument !== undefined),
    method: method as ToolDefinition["method"],
    path: entry.path,
    annotations: annotationsOf(operationId, method, title, group),
    inputSchema: {
      type: "object",
      properties,
      ...(required.length > 0 && { required }),
      additionalProperties: false,
      ...rules,
    },
    ...outputOf(doc, entry),
    arguments: places,
    pages,
    ...(idempotencyArgument !== undefined && { idempotencyArgument }),
  };
  return tool;
}

/** The rules of a body about its fields together, which hold as well of the flattened arguments. */
const FIELD_RULES = ["oneOf", "anyOf", "not", "if", "then", "else"] as const;

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
  if (body.type !== "object" || body.properties === undefined || open || "allOf" in body) {
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
      "additionalProperties" in schema ||
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

function describe(schema: JsonSchema, note: string): JsonSchema {
  const before = typeof schema.description === "string" ? `${schema.description.trim()} ` : "";
  return { ...schema, description: `${before}${note}` };
}

export function buildTools(sources: Source[]): ToolDefinition[] {
  const tools = sources.flatMap(({ group, doc }) =>
    listOperations(doc).map((entry) => toolOf(doc, group, entry)),
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

export function render(sources: Source[]): Record<string, string> {
  const tools = buildTools(sources);
  return {
    "tools.ts": `${HEADER}
import type { ToolDefinition } from "../tool-definition.js";

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
