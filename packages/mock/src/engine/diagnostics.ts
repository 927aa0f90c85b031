// Turns Prism's validation diagnostics into the mock's problem errors.
import type { ProblemError, ProblemLocation } from "../http/problem.js";

/** What Prism reports for one broken rule (a subset of its `IPrismDiagnostic`). */
export interface PrismDiagnostic {
  message: string;
  code?: string | number;
  path?: string[];
  severity: number;
}

/** Prism's severity for problems that reject the request. */
export const ERROR_SEVERITY = 0;

const LOCATIONS = new Set<string>(["header", "path", "query", "body"]);
const REQUIRED_PROPERTY = /required property '([^']+)'/;

/**
 * @param headerNames lower-case header name → the spelling the spec uses (Prism lower-cases them)
 * @param apiKeyHeader the header the security scheme reads, to name it in a 401
 */
export function toProblemErrors(
  diagnostics: readonly PrismDiagnostic[],
  headerNames: ReadonlyMap<string, string>,
  apiKeyHeader: string,
): ProblemError[] {
  return diagnostics
    .filter((diagnostic) => diagnostic.severity === ERROR_SEVERITY)
    .map((diagnostic) => toProblemError(diagnostic, headerNames, apiKeyHeader));
}

function toProblemError(
  diagnostic: PrismDiagnostic,
  headerNames: ReadonlyMap<string, string>,
  apiKeyHeader: string,
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
    return {
      location: "header",
      field: "Content-Type",
      rule: "mediaType",
      message: `is not supported (${diagnostic.message})`,
    };
  }
  const [first = "body", ...rest] = diagnostic.path ?? [];
  const location: ProblemLocation = LOCATIONS.has(first) ? (first as ProblemLocation) : "body";
  const rule = String(diagnostic.code ?? "invalid");
  const fieldPath = [...rest];
  // Prism puts a missing property in the message, not in the path.
  const missing = rule === "required" ? REQUIRED_PROPERTY.exec(diagnostic.message)?.[1] : undefined;
  if (missing !== undefined) fieldPath.push(missing);
  let field = fieldPath.join(".");
  if (location === "header") field = headerNames.get(field.toLowerCase()) ?? field;
  const message = missing !== undefined ? "is required" : stripPrismPrefix(diagnostic.message);
  return { location, field, rule, message };
}

/** "Request query parameter page_size must be <= 100" → "must be <= 100" (the field is named apart). */
function stripPrismPrefix(message: string): string {
  const start = message.indexOf("must ");
  return start === -1 ? message : message.slice(start);
}
