// Whether tools and documents agree, judged on their own terms rather than by the generator's code:
// every `$ref` of both sides resolved (the spec's to its components, a tool's to its `$defs`),
// then each operation's parameters, body and 2xx schema compared with the tool's schemas.
import { isDeepStrictEqual } from "node:util";
import {
  answersStream,
  deref,
  listOperations,
  type OpenApiDocument,
  type OperationEntry,
  resolveRef,
} from "@org/payments-spec";
import type { JsonSchema, ToolDefinition, ToolGroup } from "../../src/tool-definition.ts";

type Lookup = (ref: string) => unknown;

/** The schema with every `$ref` replaced by what it names (its siblings laid over it). */
function resolved(node: unknown, lookup: Lookup, depth = 0): unknown {
  if (depth > 64) throw new Error("schema too deep (a recursive $ref?)");
  if (Array.isArray(node)) return node.map((item) => resolved(item, lookup, depth + 1));
  if (node === null || typeof node !== "object") return node;
  const { $ref, ...rest } = node as JsonSchema;
  const own = Object.fromEntries(
    Object.entries(rest)
      .filter(([key]) => key !== "$defs" && key !== "example")
      .map(([key, value]) => [
        key,
        key === "properties"
          ? booleansAsSchemas(resolved(value, lookup, depth + 1))
          : resolved(value, lookup, depth + 1),
      ]),
  );
  if (typeof $ref !== "string") return own;
  return { ...(resolved(lookup($ref), lookup, depth + 1) as JsonSchema), ...own };
}

/** A map of properties with `true` and `false` written as the schemas they mean, `{}` and `{ not: {} }`. */
function booleansAsSchemas(properties: unknown): unknown {
  if (properties === null || typeof properties !== "object") return properties;
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => [
      name,
      typeof schema === "boolean" ? (schema ? {} : { not: {} }) : schema,
    ]),
  );
}

/** A schema's constraints: its root's annotations (which a tool may phrase as the parameter's) set aside. */
function constraints(schema: unknown): unknown {
  if (schema === null || typeof schema !== "object") return schema;
  const { description: _d, examples: _e, title: _t, ...rest } = schema as JsonSchema;
  return rest;
}

/** Annotations, and formats that say nothing the type and limits do not. */
const NOT_RULES = new Set(["description", "examples", "title", "deprecated"]);
const INTEGER_FORMATS = new Set(["int32", "int64", "uint32", "uint64"]);

/** A schema's rules alone: every `$ref` to its `$defs` resolved, annotations dropped. */
function rulesOf(root: JsonSchema): unknown {
  const defs = (root.$defs ?? {}) as Record<string, unknown>;
  const full = resolved(root, (ref) => defs[ref.replace("#/$defs/", "")]);
  const strip = (node: unknown, inProperties = false): unknown => {
    if (Array.isArray(node)) return node.map((item) => strip(item));
    if (node === null || typeof node !== "object") return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(
          ([key, value]) =>
            inProperties ||
            !(NOT_RULES.has(key) || (key === "format" && INTEGER_FORMATS.has(String(value)))),
        )
        .map(([key, value]) => [key, strip(value, !inProperties && key === "properties")]),
    );
  };
  return strip(full);
}

/** Boolean schemas of properties as the tools write them: `false` is `{ not: {} }`, `true` `{}`. */
function asObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asObjects);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === "properties" && value !== null && typeof value === "object"
        ? Object.fromEntries(
            Object.entries(value).map(([name, sub]) => [
              name,
              sub === false ? { not: {} } : sub === true ? {} : asObjects(sub),
            ]),
          )
        : asObjects(value),
    ]),
  );
}

const headerArgumentOf = (header: string) =>
  header
    .toLowerCase()
    .replace(/^x-/, "")
    .replace(/[^a-z0-9]+/g, "_");

export function disagreements(
  tools: readonly ToolDefinition[],
  sources: { group: ToolGroup; doc: OpenApiDocument }[],
): string[] {
  const found: string[] = [];
  // A streamed answer (the event stream) is no tool: a tool call waits for a whole answer.
  const operations = sources.flatMap(({ group, doc }) =>
    listOperations(doc)
      .filter((entry) => !answersStream(doc, entry))
      .map((entry) => ({ group, doc, entry })),
  );
  for (const tool of tools) {
    if (!operations.some(({ entry }) => entry.operationId === tool.name)) {
      found.push(`${tool.name}: a tool with no operation in the documents`);
    }
  }
  for (const { group, doc, entry } of operations) {
    const tool = tools.find((candidate) => candidate.name === entry.operationId);
    if (!tool) {
      found.push(`${entry.operationId}: an operation with no tool`);
      continue;
    }
    found.push(...compare(doc, group, entry, tool).map((text) => `${tool.name}: ${text}`));
  }
  return found;
}

function compare(
  doc: OpenApiDocument,
  group: ToolGroup,
  entry: OperationEntry,
  tool: ToolDefinition,
): string[] {
  const found: string[] = [];
  const fromSpec: Lookup = (ref) => resolveRef(doc, ref);
  const fromTool =
    (root: JsonSchema): Lookup =>
    (ref) =>
      (root.$defs as JsonSchema)[ref.replace("#/$defs/", "")];
  const same = (what: string, spec: unknown, mine: unknown) => {
    if (!isDeepStrictEqual(spec, mine)) found.push(`${what} differs from the spec`);
  };
  if (tool.group !== group) found.push(`group ${tool.group}, not ${group}`);
  if (tool.method !== entry.method.toUpperCase() || tool.path !== entry.path) {
    found.push(`${tool.method} ${tool.path}, not ${entry.method.toUpperCase()} ${entry.path}`);
  }
  const words = (text: string) => text.replace(/\s+/g, " ").trim();
  const description = String(entry.operation.description ?? entry.operation.summary ?? "");
  if (words(tool.description) !== words(description)) found.push("description is not the spec's");
  if (!isDeepStrictEqual(rulesOf(tool.inputSchema), rulesOf(tool.listedInputSchema))) {
    found.push("the listed input schema's rules are not the input schema's");
  }

  const input = tool.inputSchema;
  const properties = (input.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((input.required as string[] | undefined) ?? []);
  const expected = new Set<string>();
  for (const parameter of entry.parameters) {
    const name = parameter.in === "header" ? headerArgumentOf(parameter.name) : parameter.name;
    expected.add(name);
    const mine = properties[name];
    if (!mine) {
      found.push(`parameter ${parameter.name} has no argument ${name}`);
      continue;
    }
    same(
      `argument ${name}`,
      constraints(resolved(parameter.schema, fromSpec)),
      constraints(resolved(mine, fromSpec)),
    );
    // The server makes the idempotency key: the one required header a caller may leave out.
    const made = parameter.name.toLowerCase() === "idempotency-key";
    if (required.has(name) !== (!!parameter.required && !made)) {
      found.push(`argument ${name} is ${required.has(name) ? "" : "not "}required`);
    }
  }
  const body = deref(doc, entry.operation.requestBody);
  const bodySchema = body?.content?.["application/json"]?.schema;
  if (bodySchema !== undefined) {
    const spec = resolved(bodySchema, fromSpec) as JsonSchema;
    if (properties.body && tool.arguments.body?.in === "body-whole") {
      expected.add("body");
      same("body", spec, resolved(properties.body, fromSpec));
    } else {
      // One of closed objects: their fields side by side, each alternative's required ones.
      const alternatives = (spec.properties === undefined ? spec.oneOf : undefined) as
        | JsonSchema[]
        | undefined;
      const fields = (
        alternatives === undefined
          ? (spec.properties ?? {})
          : Object.assign({}, ...alternatives.map((alternative) => alternative.properties))
      ) as Record<string, unknown>;
      const needed = new Set(body.required ? ((spec.required as string[]) ?? []) : []);
      for (const [name, schema] of Object.entries(fields)) {
        expected.add(name);
        same(`body field ${name}`, schema, properties[name]);
        if (required.has(name) !== needed.has(name)) found.push(`body field ${name} required`);
      }
      if (alternatives !== undefined) {
        const spelled = ((input.oneOf ?? []) as JsonSchema[]).map((rule) => rule.required);
        same(
          "body's alternatives",
          alternatives.map((alternative) => alternative.required),
          spelled,
        );
      }
      for (const rule of ["allOf", "anyOf", "not", "if", "then", "else"]) {
        if (rule in spec) {
          same(`body's ${rule}`, asObjects(resolved(spec[rule], fromSpec)), input[rule]);
        }
      }
    }
  }
  if (tool.pages) expected.add("all_pages");
  for (const name of Object.keys(properties)) {
    if (!expected.has(name)) found.push(`argument ${name} is in no parameter or body field`);
  }
  for (const name of expected) if (!(name in properties)) found.push(`no argument ${name}`);

  const responses = (entry.operation.responses ?? {}) as Record<string, unknown>;
  const status = Object.keys(responses).find((code) => /^2(\d\d|XX)$/i.test(code));
  const success =
    status === undefined
      ? undefined
      : deref(doc, responses[status])?.content?.["application/json"]?.schema;
  if (success === undefined) {
    if (tool.outputSchema) found.push("an output schema for an operation that answers no JSON");
    return found;
  }
  if (!tool.outputSchema) return [...found, "no output schema"];
  const root = tool.outputSchema;
  const mine = resolved(root, fromTool(root)) as JsonSchema;
  const spec = resolved(success, fromSpec) as JsonSchema;
  if (tool.output === "wrapped") {
    same("output", spec, (mine.properties as JsonSchema).result);
  } else {
    // MCP wants `type: "object"` on the output schema's root; an allOf of objects gets it added.
    same("output", { type: "object", ...spec }, { ...mine, type: "object" });
  }
  return found;
}
