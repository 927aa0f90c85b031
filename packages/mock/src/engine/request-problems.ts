// What is wrong with a request, in the mock's words: the mock refuses it, the proxy reports it.

import { type Problem, type ProblemError, problem } from "../http/problem.js";
import type { ApiRequest } from "../http/read-request.js";
import { nonDecimalIntegers } from "./decimal-integers.js";
import { type PrismDiagnostic, toProblemErrors } from "./diagnostics.js";
import type { Operation, PrismEngine } from "./prism.js";

/**
 * Prism's diagnostics of the request as problem errors, then the mock's own checks. A query
 * parameter that takes one value and was sent more than once gets one problem that says so,
 * instead of what its comma-joined values break.
 */
export function requestProblems(
  engine: PrismEngine,
  operation: Operation | undefined,
  request: ApiRequest,
  repeated: readonly string[],
  diagnostics: readonly PrismDiagnostic[],
): ProblemError[] {
  const repeatedSingles = repeatedSingleValues(operation, repeated);
  const isRepeated = (error: ProblemError) =>
    error.location === "query" && repeatedSingles.some((single) => single.field === error.field);
  const found = [
    ...toProblemErrors(diagnostics, engine.headerNames, engine.apiKeyHeader),
    ...nonDecimalIntegers(operation, request.query),
  ];
  return [...found.filter((error) => !isRepeated(error)), ...repeatedSingles];
}

function repeatedSingleValues(
  operation: Operation | undefined,
  repeated: readonly string[],
): ProblemError[] {
  return (operation?.request?.query ?? [])
    .filter((parameter) => repeated.includes(parameter.name))
    .filter((parameter) => (parameter.schema as { type?: unknown } | undefined)?.type !== "array")
    .map((parameter) => ({
      location: "query",
      field: parameter.name,
      rule: "repeated",
      message: "was sent more than once; it takes a single value",
    }));
}

/** The problem a refused request gets: 401 when the API key is the problem, else `status`. */
export function requestRefusal(status: number, errors: ProblemError[]): Problem {
  return status === 401
    ? problem(401, "unauthorized", "Missing or invalid API key", errors)
    : problem(status, "invalid-request", "Invalid request", errors);
}
