// A schema rule Prism (that is, Ajv) reports, in words a person reads without knowing JSON Schema:
// "must be at most 100", not "must be <= 100"; "must be at most 4 lines of at most 35 characters
// each", not the regular expression; "must be a string; got a number", not "must be string".

/** What the request (or response) actually had where the rule was broken, when it is known. */
export type Received = { known: true; value: unknown } | { known: false };

/**
 * The patterns the spec and the test-mode document use, in the words their descriptions give them
 * (a pattern missing here is shown as it is, and the test that walks the spec's keywords fails
 * until it is added).
 */
const PATTERN_WORDS: Record<string, string> = {
  "^-?[0-9]+(\\.[0-9]+)?$":
    'must be a decimal number written as a string, such as "1000.00" or "-0.5"',
  "^[^\\r\\n]{0,35}(\\r?\\n[^\\r\\n]{0,35}){0,3}$":
    "must be at most 4 lines of at most 35 characters each",
  // The test-mode document's.
  "^[0-9]{1,15}(\\.[0-9]{1,18})?$":
    'must be a decimal number greater than 0 written as a string, such as "1000.00" (at most 15 digits before the point, 18 after)',
  "^[0-9]+(\\.[0-9]+)?$": 'must be a positive decimal number written as a string, such as "1.0823"',
  "^\\s*[A-Za-z]\\s*[A-Za-z]\\s*[0-9]\\s*[0-9](\\s*[A-Za-z0-9]){10,30}\\s*$":
    "must be an IBAN: a country code, two check digits, then 10 to 30 letters or digits (spaces are taken)",
  "^[Hh][Tt][Tt][Pp][Ss]?://[^/\\s]+": "must be an http:// or https:// URL",
  "^[0-9a-f]{64}$": "must be 64 hexadecimal digits",
};

/** The formats a spec may use, as what a value of the format looks like. */
const FORMAT_WORDS: Record<string, string> = {
  uuid: "must be a UUID, such as 3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
  "date-time": "must be a date and time in RFC 3339 form, such as 2026-01-31T09:30:00Z",
  date: "must be a date in RFC 3339 form, such as 2026-01-31",
  time: "must be a time in RFC 3339 form, such as 09:30:00Z",
  email: "must be an email address",
  uri: "must be an absolute URI, such as https://example.com/hook",
  "uri-reference": "must be a URI reference",
  hostname: "must be a host name",
  ipv4: "must be an IPv4 address",
  ipv6: "must be an IPv6 address",
  int32: "must be a whole number from -2147483648 to 2147483647",
  int64: "must be a whole number from -9223372036854775808 to 9223372036854775807",
  uint32: "must be a whole number from 0 to 4294967295",
  uint64: "must be a whole number from 0 to 18446744073709551615",
  float: "must be a number",
  double: "must be a number",
  byte: "must be base64-encoded bytes",
};

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  null: "null",
};

const COMPARISONS: Record<string, string> = {
  "<=": "at most",
  ">=": "at least",
  "<": "less than",
  ">": "more than",
};

/** Rules whose words are about alternatives, where what came is no help. */
const COMBINATORS = new Set(["anyOf", "oneOf"]);

/** Rules about how many fields an object has: that it was an object says nothing more. */
const FIELD_COUNTS = new Set(["minProperties", "maxProperties"]);

/** Rules about a number's size: a query's "1000" is quoted as the number it stands for. */
const SIZES = new Set(["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"]);

/**
 * A field a `false` schema rules out. Where the body's rules tell which fields sent rule it out,
 * forbidden-fields.ts names them instead.
 */
export const NOT_ALLOWED_TOGETHER =
  "is not allowed with the other fields sent (the document's rules for this body say which go together)";

/** How long a received value may be for a message to quote it. */
const QUOTABLE = 40;

/**
 * Prism's message for a broken `rule`, reworded; `received` adds what came instead when it is
 * short. A message this does not recognise is kept as Prism wrote it.
 */
export function plainMessage(rule: string, message: string, received: Received): string {
  const words = reworded(rule, message);
  if (words === undefined) return message;
  const got =
    received.known && !COMBINATORS.has(rule) && !FIELD_COUNTS.has(rule)
      ? describe(received.value, rule)
      : undefined;
  return got === undefined ? words : `${words}; got ${got}`;
}

function reworded(rule: string, message: string): string | undefined {
  switch (rule) {
    case "type": {
      const types = /^must be ([\w,]+)$/.exec(message)?.[1]?.split(",");
      return types && `must be ${types.map((type) => TYPE_WORDS[type] ?? type).join(" or ")}`;
    }
    case "enum": {
      const allowed = /allowed values: (.*)$/.exec(message)?.[1];
      return allowed === undefined
        ? "must be one of the values the spec lists"
        : `must be one of ${allowed}`;
    }
    case "format": {
      const format = /format "([^"]+)"/.exec(message)?.[1] ?? "";
      return FORMAT_WORDS[format] ?? `must be a valid ${format}`;
    }
    case "pattern": {
      const pattern = /pattern "(.*)"$/.exec(message)?.[1] ?? "";
      return PATTERN_WORDS[pattern];
    }
    case "maximum":
    case "minimum":
    case "exclusiveMaximum":
    case "exclusiveMinimum": {
      const [, comparison = "", limit] = /must be ([<>]=?) (\S+)/.exec(message) ?? [];
      return limit && `must be ${COMPARISONS[comparison]} ${limit}`;
    }
    case "maxLength":
    case "minLength":
    case "maxItems":
    case "minItems":
    case "maxProperties":
    case "minProperties": {
      const count = /(\d+)/.exec(message)?.[1];
      const bound = rule.startsWith("max") ? "at most" : "at least";
      const unit = rule.endsWith("Length")
        ? "characters"
        : rule.endsWith("Items")
          ? "items"
          : "fields";
      return count && `must have ${bound} ${count} ${count === "1" ? unit.slice(0, -1) : unit}`;
    }
    case "uniqueItems":
      return "must not list the same item twice";
    case "additionalProperties":
      return "has a field the spec does not allow here";
    case "anyOf":
      return "must match one of the alternatives the spec allows";
    case "oneOf":
      return "must match exactly one of the alternatives the spec allows";
    case "multipleOf":
      return `must be a multiple of ${/multiple of (\S+)/.exec(message)?.[1] ?? "the step the spec sets"}`;
    case "const":
      return "must be the one value the spec allows";
    case "false schema":
      return NOT_ALLOWED_TOGETHER;
    case "not":
      return "is a value the spec rules out here (a zero, where it must be greater than 0)";
    default:
      return undefined;
  }
}

/**
 * The value received, for a message: itself when short (quoted when a string), else its kind and
 * size. For `type`, only its kind: "must be a string; got a number".
 */
function describe(value: unknown, rule: string): string | undefined {
  if (value === undefined) return undefined;
  const kind =
    value === null ? "null" : Array.isArray(value) ? "an array" : TYPE_WORDS[typeof value];
  // An array or an object is named by its kind alone, never serialised: it may be large or deep.
  if (typeof value === "object" && value !== null) return kind;
  if (rule === "type" && typeof value !== "string") return kind;
  if (typeof value === "string" && SIZES.has(rule) && /^-?\d+(\.\d+)?$/.test(value)) return value;
  if (typeof value === "string") {
    return value.length <= QUOTABLE
      ? JSON.stringify(value)
      : `a string of ${value.length} characters`;
  }
  // A JSON number past a double's range (`1e999`) is read as Infinity, which JSON writes as null.
  if (typeof value === "number" && !Number.isFinite(value)) {
    return value > 0
      ? "a number past 1.8e308, too large to read"
      : "a number below -1.8e308, too large to read";
  }
  const json = JSON.stringify(value);
  return json !== undefined && json.length <= QUOTABLE ? json : kind;
}
