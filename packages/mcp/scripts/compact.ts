// What `tools/list` shows of a tool: its input schema with every constraint kept and the prose an
// assistant needs to choose, but without what costs context and tells it nothing new. Examples
// are dropped (the spec's formats, patterns and enums say the rule), so are OpenAPI's integer
// formats (the type and limits say them) and prose that repeats an enum's values; a long
// description keeps its first sentence. A subschema repeated within a tool is written once
// under `$defs`.
import type { JsonSchema } from "../src/tool-definition.ts";
import { mapSubschemas, subschemasOf } from "./subschemas.ts";

/** Formats whose rule the schema's type and limits already state. */
const INTEGER_FORMATS = new Set(["int32", "int64", "uint32", "uint64"]);
/** A repeated subschema this long (as JSON) or longer goes to `$defs`. */
const SHARED_MIN_CHARACTERS = 120;

/** Prose as one line per paragraph: the spec's hard wraps cost a character and say nothing. */
export function oneLine(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, " "))
    .join("\n\n");
}

/** An argument's description longer than this is cut to its first sentence: the rule is in the schema. */
const LONG_DESCRIPTION = 120;

/** The description less a parenthesis that lists the enum's values again. */
function withoutEnumProse(description: string, values: readonly unknown[]): string {
  const named = values.filter((value): value is string => typeof value === "string");
  if (named.length < 3) return description;
  return description
    .replace(/\s*\(([^()]*)\)/g, (whole, inside: string) =>
      named.filter((value) => inside.includes(value)).length >= 3 ? "" : whole,
    )
    .trim();
}

/** A description on one line, without enum prose, and to its first sentence when it is long. */
function shortened(description: string, values: readonly unknown[]): string {
  const text = oneLine(withoutEnumProse(description, values)).replace(/\n\n/g, " ");
  if (text.length <= LONG_DESCRIPTION) return text;
  return text.split(/(?<=[.;])\s/)[0] ?? text;
}

/** Each property name's enum values, wherever in the schema (a branch may hold the enum). */
function enumsByName(
  schema: unknown,
  found = new Map<string, unknown[]>(),
): Map<string, unknown[]> {
  if (Array.isArray(schema)) {
    for (const item of schema) enumsByName(item, found);
  } else if (schema !== null && typeof schema === "object") {
    const properties = (schema as JsonSchema).properties;
    if (properties && typeof properties === "object") {
      for (const [name, sub] of Object.entries(properties)) {
        const values = (sub as JsonSchema)?.enum;
        if (Array.isArray(values)) found.set(name, [...(found.get(name) ?? []), ...values]);
      }
    }
    for (const value of Object.values(schema)) enumsByName(value, found);
  }
  return found;
}

function compactNode(schema: JsonSchema, enums: Map<string, unknown[]>, name?: string): JsonSchema {
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === "examples") continue;
    if (keyword === "format" && INTEGER_FORMATS.has(String(value))) continue;
    if (keyword === "description" && typeof value === "string") {
      const values = [...((schema.enum as unknown[]) ?? []), ...(enums.get(name ?? "") ?? [])];
      const text = shortened(value, values);
      if (text !== "") out.description = text;
      continue;
    }
    out[keyword] = mapSubschemas(keyword, value, (sub, key) =>
      compactNode(sub, enums, keyword === "properties" ? key : undefined),
    );
  }
  return out;
}

/** Every subschema of `schema` (not the root), as [JSON text, the schema]. */
function* subschemas(schema: JsonSchema): Generator<[string, JsonSchema]> {
  for (const [keyword, value] of Object.entries(schema)) {
    for (const child of subschemasOf(keyword, value)) {
      yield [JSON.stringify(child), child];
      yield* subschemas(child);
    }
  }
}

/** `schema` with each subschema that appears twice or more, and is long, written once. */
function shareRepeats(schema: JsonSchema): JsonSchema {
  const counts = new Map<string, number>();
  for (const [text] of subschemas(schema)) counts.set(text, (counts.get(text) ?? 0) + 1);
  const shared = [...counts]
    .filter(([text, count]) => count > 1 && text.length >= SHARED_MIN_CHARACTERS)
    .map(([text]) => text);
  if (shared.length === 0) return schema;
  const names = new Map(shared.map((text, i) => [text, `s${i + 1}`]));
  const replace = (node: JsonSchema, root: boolean): JsonSchema => {
    const text = JSON.stringify(node);
    const name = names.get(text);
    if (!root && name) return { $ref: `#/$defs/${name}` };
    const out: JsonSchema = {};
    for (const [keyword, value] of Object.entries(node)) {
      out[keyword] = mapSubschemas(keyword, value, (sub) => replace(sub, false));
    }
    return out;
  };
  const defs = Object.fromEntries(
    shared.map((text) => [names.get(text), replace(JSON.parse(text), true)]),
  );
  return { ...replace(schema, true), $defs: defs };
}

/** The input schema as `tools/list` shows it: the same rules, in fewer characters. */
export function compactInputSchema<T extends JsonSchema>(schema: T): T {
  return shareRepeats(compactNode(schema, enumsByName(schema))) as T;
}
