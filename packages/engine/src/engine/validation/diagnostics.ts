// Turns Prism's validation diagnostics into the mock's problem errors, in plain words.
import type { ProblemError, ProblemLocation } from "../../http/index.js";
import { plainMessage, type Received } from "./schema-messages.js";

/** What Prism reports for one broken rule (a subset of its `IPrismDiagnostic`). */
export interface PrismDiagnostic {
  message: string;
  code?: string | number;
  path?: string[];
  severity: number;
}

/** The rule of a body whose media type the operation does not take (a 415). */
export const MEDIA_TYPE_RULE = "mediaType";

/** Prism's severity for problems that reject the request. */
export const ERROR_SEVERITY = 0;

const LOCATIONS = new Set<string>(["header", "path", "query", "body"]);
const REQUIRED_PROPERTY = /required property '([^']+)'/;
const ADDITIONAL_PROPERTY = /; found '([^']+)'$/;

/** What was received at a location and field path (as Prism's diagnostic has it), when known. */
export type ReceivedAt = (location: ProblemLocation, path: readonly string[]) => Received;

const UNKNOWN: ReceivedAt = () => ({ known: false });

/**
 * Each diagnostic that rejects, once: Ajv reports a rule broken in each branch of an `anyOf`, so
 * the same words at the same field are said once.
 *
 * @param headerNames lower-case header name → the spelling the spec uses (Prism lower-cases them)
 * @param apiKeyHeader the header the security scheme reads, to name it in a 401
 * @param received what the request or response had there, for the message to name it
 */
export function toProblemErrors(
  diagnostics: readonly PrismDiagnostic[],
  headerNames: ReadonlyMap<string, string>,
  apiKeyHeader: string,
  received: ReceivedAt = UNKNOWN,
): ProblemError[] {
  const said = new Map<string, ProblemError>();
  for (const diagnostic of diagnostics) {
    if (diagnostic.severity !== ERROR_SEVERITY) continue;
    const error = toProblemError(diagnostic, headerNames, apiKeyHeader, received);
    said.set(`${error.location} ${error.field} ${error.message}`, error);
  }
  return [...said.values()];
}

function toProblemError(
  diagnostic: PrismDiagnostic,
  headerNames: ReadonlyMap<string, string>,
  apiKeyHeader: string,
  received: ReceivedAt,
): ProblemError {
  if (diagnostic.code === 401) {
    return {
      location: "security",
      field: apiKeyHeader,
      rule: "required",
      message: `a valid ${apiKeyHeader} header is required (the partner's API key)`,
    };
  }
  if (diagnostic.code === 415) {
    const takes = /^Supported content types: (.*)$/.exec(diagnostic.message)?.[1];
    return {
      location: "header",
      field: "Content-Type",
      rule: MEDIA_TYPE_RULE,
      message:
        takes === undefined
          ? "names a body this operation does not take"
          : `is not a media type this operation takes (it takes ${takes.split(",").join(", ")})`,
    };
  }
  const [first = "body", ...rest] = diagnostic.path ?? [];
  const location: ProblemLocation = LOCATIONS.has(first) ? (first as ProblemLocation) : "body";
  const rule = String(diagnostic.code ?? "invalid");
  const fieldPath = [...rest];
  // Prism puts a missing property, and one the schema does not allow, in the message, not in the
  // path: the problem names that field.
  const missing = rule === "required" ? REQUIRED_PROPERTY.exec(diagnostic.message)?.[1] : undefined;
  if (missing !== undefined) fieldPath.push(missing);
  const unknown =
    rule === "additionalProperties" ? ADDITIONAL_PROPERTY.exec(diagnostic.message)?.[1] : undefined;
  if (unknown !== undefined) fieldPath.push(unknown);
  let field = fieldPath.join(".");
  if (location === "header") field = headerNames.get(field.toLowerCase()) ?? field;
  const message =
    missing !== undefined
      ? "is required"
      : unknown !== undefined
        ? "is not a field this body takes; leave it out"
        : plainMessage(rule, stripPrismPrefix(diagnostic.message), received(location, rest));
  return { location, field, rule, message };
}

/** "Request query parameter page_size must be <= 100" → "must be <= 100" (the field is named apart). */
function stripPrismPrefix(message: string): string {
  const start = message.indexOf("must ");
  return start === -1 ? message : message.slice(start);
}
