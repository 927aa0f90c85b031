// Compares two JSON Schemas (OpenAPI 3.1) keyword by keyword, on one side of the exchange: on the
// request side what accepts less breaks, on the response side what can carry more breaks.
import { type OpenApiDocument, resolveRef } from "../document.ts";
import { comparePatterns } from "./pattern.ts";
import { createReport } from "./report.ts";
import { sunsetOf } from "./sunset.ts";
import type { Json, SchemaContext } from "./types.ts";

const MAX_DEPTH = 64;
const UPPER_LIMITS = ["maxLength", "maximum", "exclusiveMaximum", "maxItems", "maxProperties"];
const LOWER_LIMITS = ["minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties"];

/** Formats and the formats that accept every value they accept (and more). */
const WIDER_FORMATS: Record<string, string[]> = {
  int8: ["int16", "int32", "int64"],
  int16: ["int32", "int64"],
  int32: ["int64"],
  uint8: ["uint16", "uint32", "uint64", "int16", "int32", "int64"],
  uint16: ["uint32", "uint64", "int32", "int64"],
  uint32: ["uint64", "int64"],
  float: ["double"],
};

/**
 * Reports every difference between `baseNode` (in the base document) and `headNode` (in the head
 * document) at `location`. Recursive schemas are compared once per pair of `$ref`s.
 */
export function compareSchemas(
  context: SchemaContext,
  baseNode: unknown,
  headNode: unknown,
  location: string,
) {
  const pair = refPair(baseNode, headNode);
  if (pair !== undefined && context.visited.has(pair)) return;
  // Past this depth, only a schema that nests itself without a `$ref` could still be going.
  if ((context.depth ?? 0) > MAX_DEPTH) return;
  const visited = pair === undefined ? context.visited : new Set(context.visited).add(pair);
  const inner = { ...context, visited, depth: (context.depth ?? 0) + 1 };
  const a = normalize(context.base, baseNode);
  const b = normalize(context.head, headNode);
  if (unionOf(a) || unionOf(b)) {
    compareUnions(inner, a, b, location);
    return;
  }
  compareTypes(inner, a, b, location);
  compareEnums(inner, a, b, location);
  compareFormats(inner, a, b, location);
  compareLimits(inner, a, b, location);
  comparePatternsAt(inner, a, b, location);
  if (context.side === "request") compareDefaults(inner, a, b, location);
  compareDiscriminators(inner, a, b, location);
  compareProperties(inner, a, b, location);
  compareAdditionalProperties(inner, a, b, location);
  if (a.items !== undefined || b.items !== undefined) {
    compareSchemas(inner, a.items ?? {}, b.items ?? {}, `${location}[]`);
  }
}

function refPair(baseNode: unknown, headNode: unknown): string | undefined {
  const baseRef = isObject(baseNode) ? baseNode.$ref : undefined;
  const headRef = isObject(headNode) ? headNode.$ref : undefined;
  return baseRef === undefined && headRef === undefined ? undefined : `${baseRef}|${headRef}`;
}

/**
 * The schema with its `$ref` resolved (keywords beside a `$ref` apply too, as in JSON Schema
 * 2020-12), its `allOf` merged, boolean schemas spelled out and `nullable` as a `null` type.
 */
function normalize(doc: OpenApiDocument, node: unknown, seen = new Set<string>()): Json {
  if (node === true || node === undefined || node === null) return {};
  if (node === false) return { not: {} };
  if (!isObject(node)) return {};
  let schema = node;
  if (typeof schema.$ref === "string") {
    const { $ref, ...siblings } = schema;
    if (seen.has($ref)) return siblings;
    const target = normalize(doc, resolveRef(doc, $ref), new Set(seen).add($ref));
    schema = merge([target, siblings]);
  }
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    schema = merge([...allOf.map((part) => normalize(doc, part, seen)), rest]);
  }
  if (schema.nullable === true) {
    const types = typeSet(schema);
    if (types && !types.has("null")) schema = { ...schema, type: [...types, "null"] };
  }
  return schema;
}

/** All constraints of `parts` at once: properties and required united, the rest the last one's. */
function merge(parts: Json[]): Json {
  const merged: Json = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (key === "properties" && merged.properties) {
        merged.properties = { ...merged.properties };
        for (const [name, schema] of Object.entries(value)) {
          merged.properties[name] =
            name in merged.properties ? { allOf: [merged.properties[name], schema] } : schema;
        }
      } else if (key === "required" && merged.required) {
        merged.required = [...new Set([...merged.required, ...value])];
      } else if (key === "type" && merged.type !== undefined) {
        const before = typeSet(merged) ?? new Set();
        const kept = [...(typeSet(part) ?? [])].filter(
          (type) => before.has(type) || (type === "integer" && before.has("number")),
        );
        merged.type = kept;
      } else {
        merged[key] = value;
      }
    }
  }
  return merged;
}

function unionOf(schema: Json): Json[] | undefined {
  return schema.anyOf ?? schema.oneOf;
}

/**
 * Branches are matched by shape, not by position: each base branch pairs with the head branch it
 * differs from least, branches whose types or tag values cannot overlap never pair. A base branch
 * with no partner is a narrowing, a head branch with no partner a widening.
 */
function compareUnions(context: SchemaContext, a: Json, b: Json, location: string) {
  const baseBranches = branchesOf(context.base, a);
  const headBranches = branchesOf(context.head, b);
  compareDiscriminators(context, a, b, location);
  compareExclusivity(context, a, b, headBranches, location);
  const costs = [];
  for (const [i, baseBranch] of baseBranches.entries()) {
    for (const [j, headBranch] of headBranches.entries()) {
      if (cannotOverlap(baseBranch, headBranch)) continue;
      const scratch = { ...context, report: createReport() };
      compareSchemas(scratch, baseBranch, headBranch, location);
      costs.push({ i, j, cost: scratch.report.size, distance: Math.abs(i - j) });
    }
  }
  costs.sort((x, y) => x.cost - y.cost || x.distance - y.distance);
  const pairedBase = new Map();
  const pairedHead = new Set();
  for (const { i, j } of costs) {
    if (pairedBase.has(i) || pairedHead.has(j)) continue;
    pairedBase.set(i, j);
    pairedHead.add(j);
  }
  const label = (j: number) =>
    headBranches.length > 1 ? `${location} (branch ${j + 1})` : location;
  for (const [i, baseBranch] of baseBranches.entries()) {
    const j = pairedBase.get(i);
    if (j === undefined) {
      const rule =
        context.side === "request" ? "request-union-narrowed" : "response-union-narrowed";
      context.report.add(
        rule,
        context.operation,
        location,
        `${describe(baseBranch)} no longer allowed`,
      );
    } else {
      compareSchemas(context, baseBranch, headBranches[j], label(j));
    }
  }
  for (const [j, headBranch] of headBranches.entries()) {
    if (pairedHead.has(j)) continue;
    const rule = context.side === "request" ? "request-union-widened" : "response-union-widened";
    context.report.add(rule, context.operation, location, `${describe(headBranch)} now allowed`);
  }
}

/** The union's branches with the schema's own constraints merged into each; itself when no union. */
function branchesOf(doc: OpenApiDocument, schema: Json): Json[] {
  const union = unionOf(schema);
  if (!union) return [schema];
  // The discriminator is the union's, compared once by compareDiscriminators.
  const { anyOf, oneOf, discriminator, ...rest } = schema;
  return union.map((branch) => merge([rest, normalize(doc, branch)]));
}

/**
 * `anyOf` → `oneOf` refuses the values that match more than one branch; `oneOf` → `anyOf` admits
 * them. Neither changes anything when no two branches can overlap (other types, other tags).
 */
function compareExclusivity(
  context: SchemaContext,
  a: Json,
  b: Json,
  branches: Json[],
  location: string,
) {
  const keyword = (schema: Json) => (schema.oneOf ? "oneOf" : schema.anyOf ? "anyOf" : undefined);
  const [before, after] = [keyword(a), keyword(b)];
  if (before === undefined || after === undefined || before === after) return;
  const overlapping = branches.some((branch, i) =>
    branches.slice(i + 1).some((other) => !cannotOverlap(branch, other)),
  );
  if (!overlapping) return;
  const detail =
    after === "oneOf"
      ? "anyOf → oneOf: a value that matches more than one branch is no longer valid"
      : "oneOf → anyOf: a value that matches more than one branch is now valid";
  directed(context, "union", after === "oneOf" ? "narrowed" : "widened", location, detail);
}

type Discriminator = { property: string; tags: Set<string> };

/**
 * A discriminator restricts a union to values whose property names a branch: its tags are the
 * mapping's keys and, for a branch the mapping does not name, the branch's component name. When
 * every branch already requires the property with exactly its tags as values, the discriminator
 * restricts nothing, and counts as absent.
 */
function discriminatorOf(doc: OpenApiDocument, schema: Json): Discriminator | undefined {
  const property = schema.discriminator?.propertyName;
  if (typeof property !== "string") return undefined;
  const mapping: Record<string, string> = schema.discriminator.mapping ?? {};
  const targetOf = (value: string) =>
    value.startsWith("#") ? value : `#/components/schemas/${value}`;
  const branches: unknown[] = unionOf(schema) ?? [];
  const tagsOf = (branch: unknown) => {
    const ref = isObject(branch) && typeof branch.$ref === "string" ? branch.$ref : undefined;
    const mapped = Object.keys(mapping).filter((tag) => targetOf(mapping[tag] ?? "") === ref);
    const implicit = ref?.split("/").pop();
    return mapped.length > 0 ? mapped : implicit === undefined ? [] : [implicit];
  };
  const tags = new Set([...Object.keys(mapping), ...branches.flatMap(tagsOf)]);
  const implied =
    branches.length > 0 &&
    branches.every((branch) => {
      const resolved = normalize(doc, branch);
      const values = valuesOf(resolved.properties?.[property]);
      const own = tagsOf(branch).map((tag) => JSON.stringify(tag));
      return (
        (resolved.required ?? []).includes(property) &&
        values !== undefined &&
        values.length === own.length &&
        values.every((value) => own.includes(value))
      );
    });
  return implied ? undefined : { property, tags };
}

function compareDiscriminators(context: SchemaContext, a: Json, b: Json, location: string) {
  const before = discriminatorOf(context.base, a);
  const after = discriminatorOf(context.head, b);
  if (!before && !after) return;
  if (!before || !after) {
    const [present, change] = after ? [after, "added"] : [before as Discriminator, "removed"];
    const detail = `discriminator ${present.property} ${change}`;
    return directed(context, "discriminator", after ? "narrowed" : "widened", location, detail);
  }
  if (before.property !== after.property) {
    const detail = `discriminator ${before.property} → ${after.property}`;
    return directed(context, "discriminator", "changed", location, detail);
  }
  const lost = [...before.tags].filter((tag) => !after.tags.has(tag));
  const gained = [...after.tags].filter((tag) => !before.tags.has(tag));
  if (lost.length === 0 && gained.length === 0) return;
  const detail = [
    ...lost.map((tag) => `${before.property} ${tag} no longer mapped`),
    ...gained.map((tag) => `${after.property} ${tag} now mapped`),
  ].join(", ");
  const direction =
    lost.length > 0 && gained.length > 0 ? "changed" : lost.length > 0 ? "narrowed" : "widened";
  directed(context, "discriminator", direction, location, detail);
}

function cannotOverlap(a: Json, b: Json): boolean {
  const typesA = typeSet(a);
  const typesB = typeSet(b);
  if (typesA && typesB) {
    const overlap =
      [...typesA].some((type) => accepts(typesB, type)) ||
      [...typesB].some((type) => accepts(typesA, type));
    if (!overlap) return true;
  }
  // Two object branches tagged with different values of the same property (a discriminator).
  for (const [name, schema] of Object.entries(a.properties ?? {})) {
    const valuesA = valuesOf(schema);
    const valuesB = valuesOf(b.properties?.[name]);
    if (valuesA && valuesB && !valuesA.some((value) => valuesB.includes(value))) return true;
  }
  return false;
}

function describe(schema: Json): string {
  const types = typeSet(schema);
  const tag = Object.entries(schema.properties ?? {})
    .map(([name, property]) => [name, valuesOf(property)])
    .find(([, values]) => values?.length === 1);
  if (tag) return `the branch with ${tag[0]} ${tag[1]?.[0]}`;
  if (schema.title) return `the branch "${schema.title}"`;
  return types ? `the ${[...types].join(" | ")} branch` : "a branch";
}

function valuesOf(schema: unknown): string[] | undefined {
  if (!isObject(schema)) return undefined;
  if (schema.const !== undefined) return [JSON.stringify(schema.const)];
  return Array.isArray(schema.enum) ? schema.enum.map((value) => JSON.stringify(value)) : undefined;
}

/** Reports a change in the direction it goes: narrowed, widened, or neither (changed). */
function directed(
  context: SchemaContext,
  stem: string,
  direction: "narrowed" | "widened" | "changed",
  location: string,
  detail: string,
) {
  const rule = direction === "changed" ? `${stem}-changed` : `${context.side}-${stem}-${direction}`;
  context.report.add(rule, context.operation, location, detail);
}

function typeSet(schema: Json): Set<string> | undefined {
  if (schema.type === undefined) return undefined;
  return new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
}

/** Whether a schema of `types` accepts every value of `type` (integers are numbers). */
function accepts(types: Set<string>, type: string): boolean {
  return types.has(type) || (type === "integer" && types.has("number"));
}

function compareTypes(context: SchemaContext, a: Json, b: Json, location: string) {
  const before = typeSet(a);
  const after = typeSet(b);
  if (before === undefined && after === undefined) return;
  const show = (types: Set<string> | undefined) => (types ? [...types].join(" | ") : "any");
  const detail = `type ${show(before)} → ${show(after)}`;
  if (before === undefined) return directed(context, "type", "narrowed", location, detail);
  if (after === undefined) return directed(context, "type", "widened", location, detail);
  const lost = [...before].some((type) => !accepts(after, type));
  const gained = [...after].some((type) => !accepts(before, type));
  if (lost && gained) directed(context, "type", "changed", location, detail);
  else if (lost) directed(context, "type", "narrowed", location, detail);
  else if (gained) directed(context, "type", "widened", location, detail);
}

function compareEnums(context: SchemaContext, a: Json, b: Json, location: string) {
  const before = valuesOf(a);
  const after = valuesOf(b);
  if (before === undefined && after === undefined) return;
  if (before === undefined) {
    return directed(
      context,
      "enum",
      "narrowed",
      location,
      `values restricted to ${after?.join(", ")}`,
    );
  }
  if (after === undefined) {
    return directed(
      context,
      "enum",
      "widened",
      location,
      `values no longer restricted to ${before.join(", ")}`,
    );
  }
  const removed = before.filter((value) => !after.includes(value));
  const added = after.filter((value) => !before.includes(value));
  if (removed.length > 0) {
    directed(
      context,
      "enum",
      "narrowed",
      location,
      `enum value${plural(removed)} ${removed.join(", ")} removed`,
    );
  }
  if (added.length > 0) {
    directed(
      context,
      "enum",
      "widened",
      location,
      `enum value${plural(added)} ${added.join(", ")} added`,
    );
  }
}

function compareFormats(context: SchemaContext, a: Json, b: Json, location: string) {
  if (a.format === b.format) return;
  const detail = `format ${a.format ?? "(none)"} → ${b.format ?? "(none)"}`;
  if (a.format === undefined) return directed(context, "format", "narrowed", location, detail);
  if (b.format === undefined) return directed(context, "format", "widened", location, detail);
  if (WIDER_FORMATS[a.format]?.includes(b.format)) {
    return directed(context, "format", "widened", location, detail);
  }
  if (WIDER_FORMATS[b.format]?.includes(a.format)) {
    return directed(context, "format", "narrowed", location, detail);
  }
  directed(context, "format", "changed", location, detail);
}

function compareLimits(context: SchemaContext, a: Json, b: Json, location: string) {
  for (const keyword of [...UPPER_LIMITS, ...LOWER_LIMITS]) {
    const before = typeof a[keyword] === "number" ? a[keyword] : undefined;
    const after = typeof b[keyword] === "number" ? b[keyword] : undefined;
    if (before === after) continue;
    const upper = UPPER_LIMITS.includes(keyword);
    const narrowed =
      before === undefined || (after !== undefined && (upper ? after < before : after > before));
    directed(
      context,
      "limit",
      narrowed ? "narrowed" : "widened",
      location,
      `${keyword} ${before ?? "(none)"} → ${after ?? "(none)"}`,
    );
  }
  if (a.multipleOf !== b.multipleOf) {
    const detail = `multipleOf ${a.multipleOf ?? "(none)"} → ${b.multipleOf ?? "(none)"}`;
    // Every multiple of the old step is a multiple of the new one when the new step divides it.
    const divides = (step: number, of: number) => Number.isInteger(of / step);
    const direction =
      a.multipleOf === undefined
        ? "narrowed"
        : b.multipleOf === undefined || divides(b.multipleOf, a.multipleOf)
          ? "widened"
          : divides(a.multipleOf, b.multipleOf)
            ? "narrowed"
            : undefined;
    // When neither step divides the other, each accepts values the other refuses: that breaks
    // either side, so it is reported as the direction that breaks this one.
    const breaks = context.side === "request" ? "narrowed" : "widened";
    directed(context, "limit", direction ?? breaks, location, detail);
  }
  if (Boolean(a.uniqueItems) !== Boolean(b.uniqueItems)) {
    directed(
      context,
      "limit",
      b.uniqueItems ? "narrowed" : "widened",
      location,
      `uniqueItems ${Boolean(a.uniqueItems)} → ${Boolean(b.uniqueItems)}`,
    );
  }
}

function comparePatternsAt(context: SchemaContext, a: Json, b: Json, location: string) {
  if (a.pattern === b.pattern) return;
  const detail =
    a.pattern === undefined
      ? `pattern ${b.pattern} added`
      : b.pattern === undefined
        ? `pattern ${a.pattern} removed`
        : `pattern ${a.pattern} → ${b.pattern}`;
  const direction =
    a.pattern === undefined
      ? "narrowed"
      : b.pattern === undefined
        ? "widened"
        : comparePatterns(a.pattern, b.pattern);
  if (direction === "same") {
    context.report.add(
      "pattern-rewritten",
      context.operation,
      location,
      `${detail} (the same strings match)`,
    );
  } else {
    directed(context, "pattern", direction, location, detail);
  }
}

function compareDefaults(context: SchemaContext, a: Json, b: Json, location: string) {
  if (a.default === undefined || b.default === undefined) return;
  if (JSON.stringify(a.default) === JSON.stringify(b.default)) return;
  context.report.add(
    "request-default-changed",
    context.operation,
    location,
    `default ${JSON.stringify(a.default)} → ${JSON.stringify(b.default)}`,
  );
}

function compareProperties(context: SchemaContext, a: Json, b: Json, location: string) {
  const baseProperties = a.properties ?? {};
  const headProperties = b.properties ?? {};
  const baseRequired = new Set<string>(a.required ?? []);
  const headRequired = new Set<string>(b.required ?? []);
  // `required` may name a property that `properties` does not declare: it counts all the same.
  const names = new Set([
    ...Object.keys(baseProperties),
    ...baseRequired,
    ...Object.keys(headProperties),
    ...headRequired,
  ]);
  const { side, operation, report } = context;
  for (const name of names) {
    const at = `${location}.${name}`;
    const inBase = name in baseProperties || baseRequired.has(name);
    const inHead = name in headProperties || headRequired.has(name);
    const baseProperty = normalize(context.base, baseProperties[name]);
    const headProperty = normalize(context.head, headProperties[name]);
    if (!inHead) {
      report.add(`${side}-property-removed`, operation, at, "property removed");
      continue;
    }
    if (!inBase) {
      if (side === "request" && headRequired.has(name)) {
        report.add("request-property-required-added", operation, at, "new required property");
      } else {
        report.add(`${side}-property-added`, operation, at, "property added");
      }
      continue;
    }
    if (baseRequired.has(name) !== headRequired.has(name)) {
      const became = headRequired.has(name) ? "required" : "optional";
      report.add(`${side}-property-became-${became}`, operation, at, `property became ${became}`);
    }
    if (!baseProperty.deprecated && headProperty.deprecated) {
      report.add(
        "property-deprecated",
        operation,
        at,
        `property deprecated${sunsetOf(headProperty)}`,
      );
    }
    if (side === "request" && !baseProperty.readOnly && headProperty.readOnly) {
      report.add("request-property-read-only", operation, at, "property became readOnly");
    }
    if (side === "response" && !baseProperty.writeOnly && headProperty.writeOnly) {
      report.add("response-property-write-only", operation, at, "property became writeOnly");
    }
    compareSchemas(context, baseProperties[name] ?? {}, headProperties[name] ?? {}, at);
  }
}

function compareAdditionalProperties(context: SchemaContext, a: Json, b: Json, location: string) {
  const before = a.additionalProperties;
  const after = b.additionalProperties;
  if (isObject(before) && isObject(after)) {
    compareSchemas(context, before, after, `${location}.*`);
    return;
  }
  const openness = (value: unknown) => (value === false ? 0 : isObject(value) ? 1 : 2);
  if (openness(before) === openness(after)) return;
  const show = (value: unknown) =>
    value === undefined ? "(any)" : isObject(value) ? "a schema" : String(value);
  const detail = `additionalProperties ${show(before)} → ${show(after)}`;
  if (context.side === "response") {
    // Clients must ignore properties they do not know, so what the server may add is not a break.
    context.report.add(
      "response-additional-properties-changed",
      context.operation,
      location,
      detail,
    );
  } else {
    directed(
      context,
      "additional-properties",
      openness(after) < openness(before) ? "narrowed" : "widened",
      location,
      detail,
    );
  }
}

function plural(list: unknown[]): string {
  return list.length === 1 ? "" : "s";
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
