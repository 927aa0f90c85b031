// What is wrong with a request, in the mock's words: the mock refuses it, the proxy reports it.

import type { ApiRequest } from "../http/index.js";
import { type Problem, type ProblemError, problem } from "../http/index.js";
import { valueAt } from "../values/index.js";
import type { Operation, PrismEngine } from "./prism-engine.js";
import type { Received } from "./validation/index.js";
import {
  bodySchema,
  isMissingBody,
  MEDIA_TYPE_RULE,
  missingBodyErrors,
  namedForbiddenFields,
  namedObjectRules,
  nonDecimalIntegers,
  type PrismDiagnostic,
  type ReceivedAt,
  toProblemErrors,
} from "./validation/index.js";

/**
 * Prism's diagnostics of the request as problem errors, then the mock's own checks. A query
 * parameter that takes one value and was sent more than once gets one problem that says so,
 * instead of what its comma-joined values break; an integer parameter that is not written in
 * decimal digits, or is outside its format's range, gets the mock's problem instead of Prism's; a header sent empty is said to be; a
 * missing body names the fields it must have; a rule about an object's fields together names them,
 * and so does a field ruled out by others sent.
 */
export function requestProblems(
  engine: PrismEngine,
  operation: Operation | undefined,
  request: ApiRequest,
  repeated: readonly string[],
  diagnostics: readonly PrismDiagnostic[],
  commaValued: readonly string[] = [],
): ProblemError[] {
  // What most requests come to: nothing for Prism's findings to be replaced by or added to.
  if (diagnostics.length === 0 && repeated.length === 0 && commaValued.length === 0) {
    return nonDecimalIntegers(operation, request.query);
  }
  const repeatedSingles = [
    ...repeatedSingleValues(operation, repeated),
    ...commaJoinedArrays(operation, commaValued),
  ];
  const nonDecimal = nonDecimalIntegers(operation, request.query);
  const replaced = (error: ProblemError) =>
    error.location === "query" &&
    [...repeatedSingles, ...nonDecimal.filter((own) => own.rule === error.rule)].some(
      (other) => other.field === error.field,
    );
  const diagnosed = toProblemErrors(
    diagnostics,
    engine.headerNames,
    engine.apiKeyHeader,
    receivedIn(request, request.headers[engine.apiKeyHeader.toLowerCase()]),
  );
  const schema = bodySchema(operation);
  const named = namedForbiddenFields(
    namedObjectRules(diagnosed, schema, request.body),
    schema,
    request.body,
  );
  const found = named.flatMap((error) =>
    isSentEmpty(error, request)
      ? [sentEmpty(error)]
      : isMissingBody(error)
        ? missingBodyErrors(operation, request.body)
        : [error],
  );
  const ownNonDecimal = nonDecimal.filter(
    (error) => !repeatedSingles.some((single) => single.field === error.field),
  );
  return [...found.filter((error) => !replaced(error)), ...ownNonDecimal, ...repeatedSingles];
}

/**
 * What the request had at a diagnostic's location and path. A value that holds the API key is
 * never quoted: a problem body must not carry it. An array or an object is only ever named by its
 * kind (schema-messages.ts), so only a scalar is looked into: serialising a whole body here, once
 * for every problem, cost time and overflowed the stack on a deeply nested one.
 */
function receivedIn(request: ApiRequest, apiKey: string | undefined): ReceivedAt {
  const quotable = (value: unknown): Received =>
    apiKey && !isComposite(value) && String(value).includes(apiKey)
      ? { known: false }
      : { known: true, value };
  return (location, path) => {
    const [name = "", index] = path;
    if (location === "body") return quotable(valueAt(request.body, path.join(".")));
    if (location === "header") return quotable(request.headers[name.toLowerCase()]);
    if (location !== "query" || request.query[name] === undefined) return { known: false };
    const value = request.query[name];
    return quotable(index === undefined ? value : value.split(",")[Number(index)]);
  };
}

function isComposite(value: unknown): boolean {
  return typeof value === "object" && value !== null;
}

/** A header the request sent with no value, which Prism reports as missing. */
function isSentEmpty(error: ProblemError, request: ApiRequest): boolean {
  return (
    (error.location === "header" || error.location === "security") &&
    error.rule === "required" &&
    request.headers[error.field.toLowerCase()]?.trim() === ""
  );
}

function sentEmpty(error: ProblemError): ProblemError {
  const what = error.location === "security" ? "the partner's API key" : "a value";
  return { ...error, message: `was sent empty; it must have ${what}` };
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

/**
 * An array parameter exploded as its document says (form style, `explode` true: the default) takes
 * each value in a parameter of its own (`ids=a&ids=b`); `ids=a,b` is one value, with commas, which
 * Prism would split into two. It is refused, naming the form to use.
 */
function commaJoinedArrays(
  operation: Operation | undefined,
  commaValued: readonly string[],
): ProblemError[] {
  return (operation?.request?.query ?? [])
    .filter((parameter) => commaValued.includes(parameter.name))
    .filter((parameter) => (parameter.schema as { type?: unknown } | undefined)?.type === "array")
    .filter((parameter) => (parameter.style ?? "form") === "form" && parameter.explode !== false)
    .map((parameter) => ({
      location: "query",
      field: parameter.name,
      rule: "explode",
      message: `takes one value per parameter, repeated (${parameter.name}=a&${parameter.name}=b), not values joined with commas (${parameter.name}=a,b): the document declares it exploded (form style)`,
    }));
}

/**
 * The status of a request refused for its problems, the same on every route of every document:
 * 401 when the API key is a problem, else 415 when its media type is one the operation does not
 * take, else 422.
 */
export function refusalStatus(errors: readonly ProblemError[]): 401 | 415 | 422 {
  if (errors.some((error) => error.location === "security")) return 401;
  if (errors.some((error) => error.rule === MEDIA_TYPE_RULE)) return 415;
  return 422;
}

/** The problem a refused request gets: 401 when the API key is the problem, else `status`. */
export function requestRefusal(status: number, errors: ProblemError[]): Problem {
  return status === 401
    ? problem(401, "unauthorized", "Missing or invalid API key", errors)
    : problem(status, "invalid-request", "Invalid request", errors);
}
