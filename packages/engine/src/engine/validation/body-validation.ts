// Prism's check of a request body (`validate` of @stoplight/prism-http 5.16.0's
// dist/validator/validators/body.js) with what depends only on the operation and the media type
// done once: which of the operation's contents the media type selects, and that content's schema
// as Prism normalises it. Prism does both for every request. The schema check itself is Prism's
// (its Ajv instances, its messages); a form body, which Prism deserialises first, goes to Prism's
// own validator.
import {
  requestBodySchema,
  validateAgainstSchema,
  validateBody,
  wildcardMediaTypeMatch,
} from "../prism/index.js";

type Contents = Parameters<typeof validateBody>[1];
type Result = ReturnType<typeof validateBody>;
type Schema = NonNullable<Parameters<typeof requestBodySchema>[0]>;

/** Prism's `ValidationContext.Input`. */
const INPUT = 0;
/** Enough for every media type clients send many times over; past it, choices are not remembered. */
const MAX_MEDIA_TYPES = 1_000;

/** What Prism checks a body against: a schema (none: every body passes), or its form deserialiser. */
type Rule = { form: false; schema: Schema | undefined } | { form: true };

export type BodyValidator = (
  body: unknown,
  contents: Contents,
  mediaType: string | undefined,
  boundary: string | undefined,
  bundle: unknown,
) => Result;

/** A body validator that finds what Prism's `validateBody` finds for a request body. */
export function rememberedBodyValidation(): BodyValidator {
  const rules = new WeakMap<Contents, Map<string | undefined, Rule>>();
  const schemas = new WeakMap<Schema, Schema | undefined>();
  const normalised = (schema: Schema): Schema | undefined => {
    if (!schemas.has(schema)) schemas.set(schema, requestBodySchema(schema));
    return schemas.get(schema);
  };
  const ruleOf = (contents: Contents, mediaType: string | undefined): Rule => {
    let known = rules.get(contents);
    if (known === undefined) {
      known = new Map();
      rules.set(contents, known);
    }
    let rule = known.get(mediaType);
    if (rule === undefined) {
      rule = bodyRule(contents, mediaType, normalised);
      if (known.size < MAX_MEDIA_TYPES) known.set(mediaType, rule);
    }
    return rule;
  };
  return (body, contents, mediaType, boundary, bundle) => {
    const rule = ruleOf(contents, mediaType);
    if (rule.form) return validateBody(body, contents, INPUT, mediaType, boundary, bundle);
    if (rule.schema === undefined) return { _tag: "Right", right: body };
    const problems = validateAgainstSchema(body, rule.schema, false, INPUT, "body", bundle);
    return problems._tag === "Some"
      ? { _tag: "Left", left: problems.value }
      : { _tag: "Right", right: body };
  };
}

/**
 * Prism's choice: the first content whose media type matches the request's (wildcards allowed),
 * else the first content; without a media type, the first content as type "random".
 */
function bodyRule(
  contents: Contents,
  mediaType: string | undefined,
  normalised: (schema: Schema) => Schema | undefined,
): Rule {
  const content =
    mediaType === undefined
      ? contents[0]
      : (contents.find((c) => wildcardMediaTypeMatch(mediaType, c.mediaType)) ?? contents[0]);
  const schema = content?.schema as Schema | undefined | null;
  if (schema == null) return { form: false, schema: undefined };
  const chosenType = mediaType === undefined || content === undefined ? "random" : mediaType;
  // Prism deserialises url-encoded and multipart bodies (type-is decides which); its own
  // validator does that part, decided here with room to spare.
  if (/form/i.test(chosenType)) return { form: true };
  return { form: false, schema: normalised(schema) };
}
