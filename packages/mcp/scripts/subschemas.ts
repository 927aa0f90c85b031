// Where a JSON Schema keeps its subschemas: the keywords whose value is a map of schemas, a list
// of schemas, or one schema. The generator's walks over a schema go through here.
import type { JsonSchema } from "../src/tool-definition.ts";

const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
const SCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const SCHEMA_ONE = new Set([
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
]);

/**
 * The value of `keyword` with each subschema in it replaced by `map(sub, key)` (`key`: its name,
 * in a map of schemas); a value that holds no subschema, as it is.
 */
export function mapSubschemas(
  keyword: string,
  value: unknown,
  map: (sub: JsonSchema, key?: string) => JsonSchema,
): unknown {
  if (SCHEMA_MAPS.has(keyword) && value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, sub]) => [key, map(sub as JsonSchema, key)]),
    );
  }
  if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
    return value.map((sub) => map(sub as JsonSchema));
  }
  if (SCHEMA_ONE.has(keyword) && value !== null && typeof value === "object") {
    return map(value as JsonSchema);
  }
  return value;
}

/** The subschemas the value of `keyword` holds (none for a keyword that holds none). */
export function subschemasOf(keyword: string, value: unknown): JsonSchema[] {
  const found: JsonSchema[] = [];
  mapSubschemas(keyword, value, (sub) => {
    found.push(sub);
    return sub;
  });
  return found;
}
