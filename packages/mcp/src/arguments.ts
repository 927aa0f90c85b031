/**
 * Checks a tool call's arguments against the tool's input schema, and says what is wrong in the
 * API's plain words: each problem names the argument (`recipient_account.account_identifier`)
 * and the rule it breaks, so an assistant can fix the call.
 */
import type { Ajv2020, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import type { JsonSchema } from "./tool-definition.js";

/** OpenAPI's integer formats: ranges the schema's type and limits already state. */
const INTEGER_FORMATS = ["int32", "int64", "uint32", "uint64"];

let ajv: Promise<Ajv2020> | undefined;
const validators = new WeakMap<JsonSchema, ValidateFunction>();

/** Ajv, loaded on the first call rather than at start: listing the tools does not need it. */
async function createAjv(): Promise<Ajv2020> {
  const [{ Ajv2020 }, formats] = await Promise.all([
    import("ajv/dist/2020.js"),
    import("ajv-formats"),
  ]);
  const instance = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
  // ajv-formats is CommonJS: imported from ESM, its plugin is the module's `default`.
  formats.default.default(instance);
  for (const name of INTEGER_FORMATS) {
    instance.addFormat(name, { type: "number", validate: () => true });
  }
  return instance;
}

async function validatorOf(schema: JsonSchema): Promise<ValidateFunction> {
  let validate = validators.get(schema);
  if (validate) return validate;
  ajv ??= createAjv();
  validate = (await ajv).compile(schema);
  validators.set(schema, validate);
  return validate;
}

/** The problems of `args` under `schema`, one sentence each; empty when they fit. */
export async function argumentProblems(schema: JsonSchema, args: unknown): Promise<string[]> {
  const validate = await validatorOf(schema);
  if (validate(args)) return [];
  const errors = (validate.errors ?? []).filter(
    // anyOf/oneOf report their branches' errors too; the branch errors say more.
    (error, _i, all) => !(error.keyword === "if" || (error.keyword === "anyOf" && all.length > 1)),
  );
  const problems = errors.map((error) => problemOf(error, schema));
  return [...new Set(problems)];
}

/** `/recipient_account/account_identifier/iban` → `recipient_account.account_identifier.iban`. */
function fieldOf(instancePath: string, extra?: string): string {
  const parts = instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
  if (extra !== undefined) parts.push(extra);
  return parts.reduce(
    (field, part) => (/^\d+$/.test(part) ? `${field}[${part}]` : field ? `${field}.${part}` : part),
    "",
  );
}

const quote = (value: unknown) => JSON.stringify(value);
const list = (values: unknown[]) => values.map((value) => quote(value)).join(", ");

function problemOf(error: ErrorObject, root: JsonSchema): string {
  const params = error.params as Record<string, unknown>;
  const field = fieldOf(error.instancePath);
  const named = (text: string) => (field ? `\`${field}\` ${text}` : `the arguments ${text}`);
  switch (error.keyword) {
    case "required":
      return `\`${fieldOf(error.instancePath, String(params.missingProperty))}\` is required`;
    case "additionalProperties": {
      const extra = String(params.additionalProperty);
      if (field === "") {
        const known = Object.keys((root.properties as object | undefined) ?? {});
        return `\`${extra}\` is not an argument of this tool (its arguments: ${known.join(", ")})`;
      }
      return `\`${fieldOf(error.instancePath, extra)}\` is not a field the API takes here`;
    }
    case "type":
      return named(`must be ${article(String(params.type))}`);
    case "enum":
      return named(`must be one of ${list(params.allowedValues as unknown[])}`);
    case "const":
      return named(`must be ${quote(params.allowedValue)}`);
    case "format":
      return named(`must be ${formatWords(String(params.format))}`);
    case "pattern": {
      const example = (error.parentSchema as JsonSchema | undefined)?.examples;
      const like = Array.isArray(example) ? ` such as ${quote(example[0])}` : "";
      return named(`must match the pattern ${params.pattern}${like}`);
    }
    case "maxLength":
      return named(`must be at most ${params.limit} characters long`);
    case "minLength":
      return named(`must be at least ${params.limit} characters long`);
    case "maximum":
    case "minimum":
    case "exclusiveMaximum":
    case "exclusiveMinimum":
      return named(`must be ${String(params.comparison)} ${params.limit}`);
    case "maxItems":
      return named(`must hold at most ${params.limit} items`);
    case "minItems":
      return named(`must hold at least ${params.limit} items`);
    case "uniqueItems":
      return named("must not repeat an item");
    case "anyOf":
    case "oneOf":
      return named("must match one of the shapes its schema allows");
    case "not": {
      const described = (error.parentSchema as JsonSchema | undefined)?.description;
      return named(`is a value its schema excludes${described ? ` (${described})` : ""}`);
    }
    default:
      return named(error.message ?? `breaks the rule ${error.keyword}`);
  }
}

function article(type: string): string {
  const words = type.split(",").map((name) => (name === "integer" ? "a whole number" : name));
  return words
    .map((word) =>
      word.startsWith("a ") ? word : /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`,
    )
    .join(" or ");
}

function formatWords(format: string): string {
  switch (format) {
    case "uuid":
      return 'a UUID, such as "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f"';
    case "date-time":
      return 'an RFC 3339 date-time, such as "2026-01-31T12:00:00Z"';
    case "email":
      return "an email address";
    case "uri":
      return "an absolute URI";
    default:
      return `in the format ${format}`;
  }
}
