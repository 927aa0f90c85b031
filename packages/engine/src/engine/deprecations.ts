// What a request uses that its document deprecates: the operation, a query or header parameter,
// a field of its JSON body. Each goes with its `x-sunset` date and `x-replacement`, when the
// document gives them; answers carry them in the `Deprecation` (RFC 9745) and `Sunset` (RFC 8594)
// headers.
import type { ApiRequest } from "../http/index.js";
import { isObject } from "../values/index.js";
import type { Operation } from "./prism/index.js";

/** One deprecated thing a request used. */
export interface DeprecatedUse {
  /** What was used, in words: "operation createThing", "field `legacy_fee`", "query parameter `old`". */
  what: string;
  /** The date it goes away (YYYY-MM-DD), when the document gives one. */
  sunset?: string;
  /** What to use instead (Markdown), when the document says. */
  replacement?: string;
}

type Node = Record<string, unknown>;

/** The deprecated operation, parameters and body fields `request` uses, in that order. */
export function deprecatedUses(
  operation: Operation,
  request: Pick<ApiRequest, "query" | "headers" | "body">,
): DeprecatedUse[] {
  // Most operations deprecate nothing: a request of theirs is not walked (it cost the mock's
  // create a few per cent of its CPU time).
  if (!deprecatesAnything(operation)) return [];
  const uses: DeprecatedUse[] = [];
  if (operation.deprecated) {
    uses.push(use(`operation ${operation.iid ?? operation.id}`, operation.extensions ?? {}));
  }
  const places = [
    ["query", operation.request?.query, request.query],
    ["header", operation.request?.headers, request.headers],
  ] as const;
  for (const [place, parameters, sent] of places) {
    for (const parameter of parameters ?? []) {
      const name = place === "header" ? parameter.name.toLowerCase() : parameter.name;
      // Prism's reading of a parameter keeps `deprecated` but not its extensions: no sunset.
      if (parameter.deprecated && name in sent) {
        uses.push(use(`${place} parameter \`${parameter.name}\``, {}));
      }
    }
  }
  const schema = operation.request?.body?.contents?.find((content) =>
    /json/i.test(content.mediaType),
  )?.schema;
  if (schema !== undefined) usedFields(schema as Node, request.body, "", uses);
  return uses;
}

/** The deprecated properties of `schema` that `value` sends, at any depth. */
function usedFields(schema: Node, value: unknown, at: string, uses: DeprecatedUse[]): void {
  for (const part of ["allOf", "anyOf", "oneOf"] as const) {
    for (const alternative of (schema[part] as Node[] | undefined) ?? []) {
      usedFields(alternative, value, at, uses);
    }
  }
  if (Array.isArray(value) && isObject(schema.items)) {
    for (const item of value) usedFields(schema.items as Node, item, `${at}[]`, uses);
    return;
  }
  if (!isObject(value) || !isObject(schema.properties)) return;
  for (const [name, property] of Object.entries(schema.properties as Record<string, Node>)) {
    if (!(name in value)) continue;
    const path = at === "" ? name : `${at}.${name}`;
    if (property.deprecated === true) uses.push(use(`field \`${path}\``, property));
    usedFields(property, value[name], path, uses);
  }
}

/** Whether the operation, or anything a request of it may send, is deprecated; found once per operation. */
const deprecating = new WeakMap<Operation, boolean>();

function deprecatesAnything(operation: Operation): boolean {
  let found = deprecating.get(operation);
  if (found === undefined) {
    const parameters = [...(operation.request?.query ?? []), ...(operation.request?.headers ?? [])];
    found =
      operation.deprecated === true ||
      parameters.some((parameter) => parameter.deprecated === true) ||
      (operation.request?.body?.contents ?? []).some(
        (content) => isObject(content.schema) && holdsDeprecated(content.schema as Node, new Set()),
      );
    deprecating.set(operation, found);
  }
  return found;
}

/** Whether a property of `schema`, at any depth that usedFields walks, is deprecated. */
function holdsDeprecated(schema: Node, seen: Set<Node>): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  const parts = (["allOf", "anyOf", "oneOf"] as const).flatMap(
    (part) => (schema[part] as Node[] | undefined) ?? [],
  );
  const properties = isObject(schema.properties)
    ? Object.values(schema.properties as Record<string, Node>)
    : [];
  const items = isObject(schema.items) ? [schema.items as Node] : [];
  return (
    properties.some((property) => property.deprecated === true) ||
    [...parts, ...properties, ...items].some(
      (node) => isObject(node) && holdsDeprecated(node, seen),
    )
  );
}

function use(what: string, node: Node): DeprecatedUse {
  const { "x-sunset": sunset, "x-replacement": replacement } = node;
  return {
    what,
    ...(typeof sunset === "string" && { sunset }),
    ...(typeof replacement === "string" && { replacement: replacement.trim() }),
  };
}

/**
 * The headers of an answer to a request that used `uses`: `Deprecation` (RFC 9745's structured
 * date; the document gives no date of deprecation, so `@0`: in effect, since a date unknown) and,
 * when any names one, `Sunset` (RFC 8594's HTTP-date) at the earliest sunset. None when unused.
 */
export function deprecationHeaders(uses: readonly DeprecatedUse[]): Record<string, string> {
  if (uses.length === 0) return {};
  const sunsets = uses.flatMap((used) => {
    const at = sunsetTime(used.sunset);
    return at === undefined ? [] : [at];
  });
  const earliest = sunsets.length === 0 ? undefined : Math.min(...sunsets);
  return {
    deprecation: "@0",
    ...(earliest !== undefined && { sunset: new Date(earliest).toUTCString() }),
  };
}

/** A sunset's time (ms): a date is the start of its day in UTC; a date-time as given; else none. */
function sunsetTime(sunset: string | undefined): number | undefined {
  if (sunset === undefined) return undefined;
  const at = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(sunset) ? `${sunset}T00:00:00Z` : sunset);
  return Number.isNaN(at) ? undefined : at;
}
