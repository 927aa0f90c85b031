// Request bodies made from an operation's schema, for the contract tests: valid ones from
// json-schema-faker (seeded, so fast-check can replay and shrink a run), and near misses, each a
// valid body broken in one way a client generator or a hand-written client would (a field left
// out or added, a value outside an enum or a range, of another type or format, two alternatives
// sent together, neither sent). Whether a body is valid is decided by Ajv, independently of the
// engine the sandbox validates with.
import type { OpenApiDocument } from "@org/payments-spec";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { JSONSchemaFaker } from "json-schema-faker";

type Schema = Record<string, unknown>;
type Body = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A document's schemas by their local `$ref`, and its body schemas checked by Ajv. */
export class DocumentSchemas {
  private readonly doc: OpenApiDocument;
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<unknown, ReturnType<Ajv2020["compile"]>>();

  /** @param doc a document whose every `$ref` is local (`#/components/…`) */
  constructor(doc: OpenApiDocument) {
    this.doc = doc;
    addFormats.default(this.ajv);
    // The API's number formats (int32, …) are the ranges their words say; Ajv needs them named.
    for (const format of ["int32", "int64", "uint32", "uint64", "float", "double"]) {
      this.ajv.addFormat(format, { type: "number", validate: () => true });
    }
  }

  /** The schema itself, or the one its `$ref` names (followed until it is no reference). */
  resolve(schema: unknown): Schema {
    let node = schema;
    while (isSchema(node) && typeof node.$ref === "string") {
      node = node.$ref
        .slice(2)
        .split("/")
        .reduce<unknown>((at, key) => (isSchema(at) ? at[key] : undefined), this.doc);
    }
    return isSchema(node) ? node : {};
  }

  /** The schema as a root that carries the document's components, for its `$ref`s. */
  rooted(schema: unknown): Schema {
    return { ...this.resolve(schema), components: this.doc.components };
  }

  /** The ways `value` breaks `schema`, as Ajv words them; empty when it is valid. */
  problems(schema: unknown, value: unknown): string[] {
    let validate = this.compiled.get(schema);
    if (validate === undefined) {
      validate = this.ajv.compile(this.rooted(schema));
      this.compiled.set(schema, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message}`);
  }
}

/** A random source of [0, 1) from a seed (mulberry32), for json-schema-faker. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A body json-schema-faker makes of the schema, the same for the same seed. */
export function sampleBody(schemas: DocumentSchemas, schema: unknown, seed: number): unknown {
  JSONSchemaFaker.option({
    random: seededRandom(seed),
    alwaysFakeOptionals: false,
    optionalsProbability: 0.5,
    useExamplesValue: seed % 3 === 0,
    useDefaultValue: false,
    failOnInvalidFormat: false,
    maxItems: 3,
    maxLength: 40,
  });
  return JSONSchemaFaker.generate(schemas.rooted(schema) as never);
}

/** One way to break a body: its name, and the body it makes of a valid one. */
export interface NearMiss {
  name: string;
  apply(body: Body): Body;
}

/** A value of another type than the schema's. */
function wrongType(schema: Schema): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "string") return 12345;
  if (type === "number" || type === "integer") return "12";
  if (type === "boolean") return "yes";
  if (type === "array") return "x";
  return "x";
}

/**
 * The near misses of a body of `schema`: generic, from its keywords (required fields, declared
 * fields and their types, enums, ranges, patterns and formats, `oneOf` alternatives, fields a
 * `not` rules out together, an `else` branch's enum).
 */
export function nearMisses(schemas: DocumentSchemas, schema: unknown): NearMiss[] {
  const root = schemas.resolve(schema);
  const alternatives = (Array.isArray(root.oneOf) ? root.oneOf : []).map((branch) =>
    schemas.resolve(branch),
  );
  const fieldsOf = (node: Schema) =>
    Object.entries(isSchema(node.properties) ? node.properties : {}).map(
      ([name, field]) => [name, schemas.resolve(field)] as const,
    );
  const fields = [root, ...alternatives].flatMap(fieldsOf);
  const required = [root, ...alternatives].flatMap((node) =>
    Array.isArray(node.required) ? (node.required as string[]) : [],
  );
  const misses: NearMiss[] = [
    { name: "an empty object", apply: () => ({}) },
    { name: "an unknown field", apply: (body) => ({ ...body, unexpected_field: "x" }) },
  ];
  for (const name of new Set(required)) {
    misses.push({
      name: `without ${name}`,
      apply: (body) => Object.fromEntries(Object.entries(body).filter(([key]) => key !== name)),
    });
  }
  for (const [name, field] of fields) {
    misses.push({
      name: `${name} of another type`,
      apply: (body) => ({ ...body, [name]: wrongType(field) }),
    });
    if (Array.isArray(field.enum)) {
      misses.push({
        name: `${name} outside its enum`,
        apply: (body) => ({ ...body, [name]: "Nope" }),
      });
    }
    if (typeof field.minimum === "number") {
      const below = field.minimum - 1;
      misses.push({
        name: `${name} below its minimum`,
        apply: (body) => ({ ...body, [name]: below }),
      });
    }
    if (typeof field.maximum === "number") {
      const above = field.maximum + 1;
      misses.push({
        name: `${name} above its maximum`,
        apply: (body) => ({ ...body, [name]: above }),
      });
    }
    if (typeof field.pattern === "string" || typeof field.format === "string") {
      misses.push({
        name: `${name} of another form`,
        apply: (body) => ({ ...body, [name]: "not valid!" }),
      });
    }
    if (typeof field.minLength === "number" && field.minLength > 0) {
      misses.push({ name: `${name} empty`, apply: (body) => ({ ...body, [name]: "" }) });
    }
  }
  // Alternatives sent together: each alternative's required fields added to a body of another.
  for (const [index, alternative] of alternatives.entries()) {
    const sample = (seed: number) => sampleBody(schemas, alternative, seed) as Body;
    misses.push({
      name: `with the fields of alternative ${index + 1} too`,
      apply: (body) => ({ ...sample(index), ...body }),
    });
  }
  // Fields a `not` rules out together, all sent.
  const together = isSchema(root.not) && Array.isArray(root.not.required) ? root.not.required : [];
  if (together.length > 1) {
    misses.push({
      name: `with ${together.join(" and ")} together`,
      apply: (body) => {
        const value = Object.values(body).find((item) => typeof item === "string") ?? "EUR";
        return {
          ...body,
          ...Object.fromEntries(together.map((name) => [name, body[name] ?? value])),
        };
      },
    });
  }
  // A value an `else` branch rules out (such as a status outside the lifecycle, not forced):
  // the fields its `if` requires left out, so that the `else` applies.
  const otherwise = isSchema(root.else) ? fieldsOf(schemas.resolve(root.else)) : [];
  const condition = isSchema(root.if) && Array.isArray(root.if.required) ? root.if.required : [];
  for (const [name, field] of otherwise) {
    if (Array.isArray(field.enum)) {
      misses.push({
        name: `${name} outside the enum of its else branch`,
        apply: (body) => ({
          ...Object.fromEntries(Object.entries(body).filter(([key]) => !condition.includes(key))),
          [name]: "Nope",
        }),
      });
    }
  }
  return misses;
}
