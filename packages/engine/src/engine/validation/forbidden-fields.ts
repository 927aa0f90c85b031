// A field the body's rules rule out when other fields are sent (`if: {required: [a]}` with
// `then: {properties: {b: false}}`), said naming the fields sent that rule it out: Ajv reports
// only that `b` met a "false schema", and which fields go together is left to the reader.
import type { ProblemError } from "../../http/index.js";
import { NOT_ALLOWED_TOGETHER } from "./schema-messages.js";

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** How deep `allOf`s and `if`s within one object's schema are followed. */
const MAX_NESTING = 8;
/** How many schemas at one field are followed; past it, the field is said as before. */
const MAX_SITES = 64;

/**
 * A schema that applies to a value, and the fields sent (paths from the body) whose presence made
 * it apply; `because` is undefined when it applies for a reason not told by fields sent (an `else`,
 * or an `if` other than one of required fields).
 */
interface Site {
  schema: Schema;
  because: string[] | undefined;
}

/**
 * The body's `false schema` problems said naming the fields sent that rule each field out, where
 * the schema tells them; the others as they were.
 *
 * @param schema the schema of the body
 * @param body the body as received
 */
export function namedForbiddenFields(
  errors: readonly ProblemError[],
  schema: unknown,
  body: unknown,
): ProblemError[] {
  return errors.map((error) => {
    if (
      error.location !== "body" ||
      error.rule !== "false schema" ||
      error.field === "" ||
      !error.message.startsWith(NOT_ALLOWED_TOGETHER)
    ) {
      return error;
    }
    const fields = rulingOut(schema, error.field.split("."), body);
    if (fields === undefined) return error;
    // What came instead ("; got …") is kept as it was said.
    const rest = error.message.slice(NOT_ALLOWED_TOGETHER.length);
    return { ...error, message: `is not allowed with ${fields.join(" and ")}${rest}` };
  });
}

/**
 * The fields sent that rule out the field at `path`, or undefined unless every schema with a
 * `false` there applies because of fields sent.
 */
function rulingOut(root: unknown, path: string[], body: unknown): string[] | undefined {
  if (!isSchema(root)) return undefined;
  let sites = distinct(sitesOf(root, body, "", []));
  let value = body;
  let at = "";
  for (const [index, key] of path.entries()) {
    if (sites.length === 0 || sites.length > MAX_SITES) return undefined;
    if (index === path.length - 1) {
      const ruling = sites.filter((site) => ownField(site.schema.properties, key) === false);
      if (ruling.length === 0) return undefined;
      const fields: string[] = [];
      for (const { because } of ruling) {
        if (because === undefined || because.length === 0) return undefined;
        fields.push(...because);
      }
      return [...new Set(fields)];
    }
    const parent = value;
    value = childOf(parent, key);
    at = at === "" ? key : `${at}.${key}`;
    const next: Site[] = [];
    for (const site of sites) {
      const child = childSchema(site.schema, parent, key);
      if (child !== undefined) next.push(...sitesOf(child, value, at, site.because));
    }
    sites = distinct(next);
  }
  return undefined;
}

/**
 * The schemas that apply to a value: the node, the parts of its `allOf`, and the `then` of each
 * `if` of required fields that the value has (an `else`, or the branches of any other `if`, with
 * no fields to name).
 *
 * @param at the value's path from the body, which the fields an `if` names are said within
 */
function sitesOf(
  node: Schema,
  value: unknown,
  at: string,
  because: string[] | undefined,
  depth = 0,
): Site[] {
  if (depth > MAX_NESTING) return [];
  const sites: Site[] = [{ schema: node, because }];
  const parts = Array.isArray(node.allOf) ? node.allOf.filter(isSchema) : [];
  for (const part of parts) sites.push(...sitesOf(part, value, at, because, depth + 1));
  if (!isSchema(node.if)) return sites;
  const required = requiredOnly(node.if);
  if (required === undefined) {
    for (const branch of [node.then, node.else].filter(isSchema)) {
      sites.push(...sitesOf(branch, value, at, undefined, depth + 1));
    }
    return sites;
  }
  const holds = isSchema(value) && required.every((field) => Object.hasOwn(value, field));
  const branch = holds ? node.then : node.else;
  const sent =
    holds && because !== undefined
      ? [...because, ...required.map((field) => (at === "" ? field : `${at}.${field}`))]
      : undefined;
  if (isSchema(branch)) sites.push(...sitesOf(branch, value, at, sent, depth + 1));
  return sites;
}

/** The sites, each schema with each reason once: a schema that refers to itself repeats. */
function distinct(sites: Site[]): Site[] {
  const seen = new Map<Schema, Set<string>>();
  return sites.filter(({ schema, because }) => {
    const reason = because === undefined ? "" : `:${because.join("\0")}`;
    const reasons = seen.get(schema) ?? new Set<string>();
    seen.set(schema, reasons);
    if (reasons.has(reason)) return false;
    reasons.add(reason);
    return true;
  });
}

/** The fields of an `if` that only requires fields, or undefined for any other `if`. */
function requiredOnly(condition: Schema): string[] | undefined {
  const { required, ...rest } = condition;
  if (Object.keys(rest).length > 0 || !Array.isArray(required) || required.length === 0) {
    return undefined;
  }
  return required.every((field) => typeof field === "string") ? required : undefined;
}

/** The schema a node gives its field or item `key` of `parent`, when it gives one. */
function childSchema(node: Schema, parent: unknown, key: string): Schema | undefined {
  if (Array.isArray(parent)) {
    if (!/^\d+$/.test(key)) return undefined;
    const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
    const item = Number(key) < prefix.length ? prefix[Number(key)] : node.items;
    return isSchema(item) ? item : undefined;
  }
  const child = ownField(node.properties, key);
  return isSchema(child) ? child : undefined;
}

function childOf(parent: unknown, key: string): unknown {
  if (Array.isArray(parent)) return /^\d+$/.test(key) ? parent[Number(key)] : undefined;
  return ownField(parent, key);
}

/** An object's own field (never one it inherits, such as `__proto__`). */
function ownField(object: unknown, key: string): unknown {
  return isSchema(object) && Object.hasOwn(object, key) ? object[key] : undefined;
}
