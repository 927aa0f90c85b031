/**
 * Checks a tool call's arguments against the tool's input schema, and says what is wrong in the
 * API's plain words: each problem names the argument (`recipient_account.account_identifier`)
 * and the rule it breaks, so an assistant can fix the call.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";
import type { JsonSchema } from "./tool-definition.js";

/** OpenAPI's integer formats: ranges the schema's type and limits already state. */
const INTEGER_FORMATS = ["int32", "int64", "uint32", "uint64"];

/** The most problems one refusal names: an argument can break a rule in each of its items. */
const MAX_PROBLEMS = 50;

let ajv: Ajv2020 | undefined;
const validators = new WeakMap<object, ValidateFunction>();

/** The one Ajv, made on the first call: listing the tools does not need it. */
function validatorOf(schema: object): ValidateFunction {
  let validate = validators.get(schema);
  if (validate) return validate;
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
    // ajv-formats is CommonJS: imported from ESM, its plugin is the module's `default`.
    formatsModule.default(ajv);
    for (const name of INTEGER_FORMATS) {
      ajv.addFormat(name, { type: "number", validate: () => true });
    }
  }
  validate = ajv.compile(schema);
  validators.set(schema, validate);
  return validate;
}

/**
 * The same Ajv as the SDK's server validator (it checks what a client answers to a server's
 * request): without one, the SDK builds its own Ajv as the server starts.
 */
export const schemaValidator = {
  getValidator<T>(schema: object) {
    const validate = validatorOf(schema);
    return (input: unknown) =>
      validate(input)
        ? { valid: true as const, data: input as T, errorMessage: undefined }
        : {
            valid: false as const,
            data: undefined,
            errorMessage: String(validate.errors?.[0]?.message),
          };
  },
};

/** The problems of `args` under `schema`, one sentence each; empty when they fit. */
export function argumentProblems(schema: JsonSchema, args: unknown): string[] {
  const validate = validatorOf(schema);
  if (validate(args)) return [];
  let errors = validate.errors ?? [];
  const problems: string[] = [];
  // A choice among fields (one of `seconds` or `to`) is said as one sentence naming them all,
  // in place of each branch's complaint.
  for (const error of errors.filter((e) => e.keyword === "oneOf" || e.keyword === "anyOf")) {
    const choice = choiceOf(error, schema, args);
    if (choice === undefined) continue;
    problems.push(choice);
    errors = errors.filter(
      (other) => other !== error && !other.schemaPath.startsWith(`${error.schemaPath}/`),
    );
  }
  errors = errors.filter(
    // anyOf/oneOf report their branches' errors too; the branch errors say more.
    (error, _i, all) => !(error.keyword === "if" || (error.keyword === "anyOf" && all.length > 1)),
  );
  // One at a time: spread as arguments, a million problems overflow the stack.
  for (const error of errors) problems.push(problemOf(error, schema));
  const unique = [...new Set(problems)];
  if (unique.length <= MAX_PROBLEMS) return unique;
  const more = unique.length - MAX_PROBLEMS;
  return [
    ...unique.slice(0, MAX_PROBLEMS),
    `${more} more problem${more === 1 ? "" : "s"} like these`,
  ];
}

/** What a JSON pointer (`#/oneOf/0`, `/to`) names in `root`. */
function at(root: unknown, pointer: string): unknown {
  return pointer
    .replace(/^#/, "")
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<unknown>(
      (node, part) =>
        node !== null && typeof node === "object"
          ? (node as Record<string, unknown>)[part]
          : undefined,
      root,
    );
}

const fieldList = (names: string[], joint: string) =>
  names.length <= 1
    ? `\`${names[0] ?? ""}\``
    : `${names
        .slice(0, -1)
        .map((name) => `\`${name}\``)
        .join(", ")} ${joint} \`${names.at(-1)}\``;

/**
 * A oneOf/anyOf whose branches each require fields (one of `seconds` or `to`), said as the choice
 * it is: none given, or more than one of a oneOf's. Undefined when the branches are of other
 * shapes, or when one field is given and the branch fails for another reason (its errors say it).
 */
function choiceOf(error: ErrorObject, root: JsonSchema, args: unknown): string | undefined {
  const branches = at(root, error.schemaPath);
  if (!Array.isArray(branches)) return undefined;
  const fields = branches.map((branch) => (branch as JsonSchema)?.required);
  if (!fields.every((names) => Array.isArray(names) && names.length > 0)) return undefined;
  const names = [...new Set((fields as string[][]).flat())];
  const value = at(args, error.instancePath);
  if (value === null || typeof value !== "object") return undefined;
  const given = names.filter((name) => name in value);
  const where = error.instancePath === "" ? "" : ` in \`${fieldOf(error.instancePath)}\``;
  if (given.length === 0) return `give one of ${fieldList(names, "or")}${where}`;
  if (error.keyword === "oneOf" && given.length > 1) {
    return `give only one of ${fieldList(names, "or")}${where}, not ${fieldList(given, "and")} together`;
  }
  return undefined;
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
      const excluded = at(root, error.schemaPath) as JsonSchema | undefined;
      const together = excluded?.required;
      if (Array.isArray(together) && Object.keys(excluded ?? {}).length === 1) {
        const names = together.map((name) => fieldOf(error.instancePath, String(name)));
        return `${fieldList(names, "and")} cannot be given together: give one of them`;
      }
      // A field a rule leaves out (`then: { properties: { topic: false } }`): said with the
      // fields whose presence leaves it out.
      if (excluded !== undefined && Object.keys(excluded).length === 0) {
        const rule = /^(.*)\/then\/properties\/[^/]+\/not$/.exec(error.schemaPath)?.[1];
        const condition = rule === undefined ? undefined : (at(root, `${rule}/if`) as JsonSchema);
        const given = Array.isArray(condition?.required) ? (condition.required as string[]) : [];
        const parent = error.instancePath.split("/").slice(0, -1).join("/");
        const names = given.map((name) => fieldOf(parent, name));
        return names.length > 0
          ? named(`cannot be given with ${fieldList(names, "and")}`)
          : named("cannot be given here");
      }
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
