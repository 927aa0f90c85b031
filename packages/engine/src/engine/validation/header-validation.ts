// Prism's check of a request's headers (`validateParams` of @stoplight/prism-http 5.16.0's
// dist/validator/validators/params.js, as its headers.js calls it) for the common case, with what
// depends only on the operation done once. Prism builds the values it checks with lodash's keyBy,
// mapKeys, mapValues and pickBy, and combines the result with fp-ts, for every request. Where
// each header is a plain value (simple style, neither an array nor an object, not deprecated),
// those values are the headers' own, by lower-case name, empty ones left out; the schema check
// is Prism's (its Ajv instance that coerces, its messages). Any other list of headers goes to
// Prism's validator.
import { validateAgainstSchema, validateHeaders } from "../prism/index.js";

type Headers = Parameters<typeof validateHeaders>[0];
type Specs = Parameters<typeof validateHeaders>[1];
type Result = ReturnType<typeof validateHeaders>;
type Schema = Parameters<typeof validateAgainstSchema>[1];

/** Prism's `ValidationContext.Input`. */
const INPUT = 0;

/**
 * What a plain list of headers is checked with: the lower-case names (and their lengths, which
 * rule out most of a request's headers unread), and Prism's schema of them.
 */
type Plain = { names: string[]; lengths: Set<number>; schema: Schema };

export type HeaderValidator = (headers: Headers, specs: Specs, bundle: unknown) => Result;

/** A header validator that finds what Prism's `validateHeaders` finds. */
export function rememberedHeaderValidation(): HeaderValidator {
  const plainLists = new WeakMap<Specs, Plain | null>();
  return (headers, specs, bundle) => {
    let plain = plainLists.get(specs);
    if (plain === undefined) {
      plain = plainHeaders(specs);
      plainLists.set(specs, plain);
    }
    if (plain === null) return validateHeaders(headers, specs, INPUT, bundle);
    // Each named header's value, the last in any case winning, as Prism's keyBy and mapKeys do.
    const found: Record<string, string | undefined> = {};
    for (const key of Object.keys(headers)) {
      if (!plain.lengths.has(key.length)) continue;
      const name = key.toLowerCase();
      if (plain.names.includes(name)) found[name] = headers[key];
    }
    const values: Record<string, unknown> = {};
    for (const name of plain.names) {
      const value = found[name];
      // lodash's pickBy without a predicate keeps only truthy values.
      if (value) values[name] = value;
    }
    const problems = validateAgainstSchema(values, plain.schema, true, INPUT, "header", bundle);
    return problems._tag === "Some"
      ? { _tag: "Left", left: [...problems.value] as typeof problems.value }
      : { _tag: "Right", right: headers };
  };
}

/** The names and schema of a list of plain headers (Prism's `createJsonSchemaFromParams`), else null. */
function plainHeaders(specs: Specs): Plain | null {
  if (specs.length === 0) return null;
  const byName = new Map<string, Specs[number]>();
  for (const spec of specs) {
    const type = (spec.schema as { type?: unknown } | undefined)?.type;
    if (spec.deprecated || (spec.style ?? "simple") !== "simple") return null;
    if (type === "array" || type === "object") return null;
    byName.set(spec.name.toLowerCase(), spec);
  }
  // As Prism writes it: its schema's property names are lower-cased by locale, the rest not.
  const schemas = new Map<string, unknown>();
  for (const spec of specs) schemas.set(spec.name.toLocaleLowerCase(), spec.schema);
  const properties: Record<string, unknown> = {};
  for (const [name, schema] of schemas) if (schema) properties[name] = schema;
  const required = specs.flatMap((spec) => (spec.required ? [spec.name.toLowerCase()] : []));
  const names = [...byName.keys()];
  return {
    names,
    lengths: new Set(names.map((name) => name.length)),
    schema: { type: "object", properties, required: required.filter(Boolean) } as Schema,
  };
}
