// A violation: one rule of the spec that a request or a response broke, in the words the proxy
// logs, reports and (with `errors`) answers with.
import type { ProblemError, ProblemLocation } from "@org/payments-engine";
import { valueAt } from "@org/payments-engine";

/** One line of the report (`--report`): a rule of the spec that a request or response broke. */
export interface Violation {
  /** When it was found (ISO 8601). */
  time: string;
  /** The request's number in this run of the proxy: a request's violations share it. */
  request: number;
  method: string;
  /** The request target's path and query, as the client sent them. */
  target: string;
  /** The spec's `operationId`, or null when the request matches no operation. */
  operation: string | null;
  location: "request" | "response";
  /** The whole violation in plain words: operation, request or response, where, rule, actual value. */
  message: string;
  /** Where in the request or response: `status`, `header`, `body`, `query`, `path`, `security`, `route`. */
  in: ProblemLocation;
  /** The field, header or parameter (dotted for body fields); "" for the whole location. */
  field: string;
  /** The rule broken, such as `type`, `required`, `enum`, `mediaType`, `status` or `repeated`. */
  rule: string;
  /** The response's status, when the violation is in a response. */
  status?: number;
  /** The actual value's JSON type, media type or status, where there is one. */
  actual?: string;
  /** The start of the offending value as JSON (the API key redacted). */
  excerpt?: string;
}

/** A problem error, with what was actually found where it points. */
export interface Finding extends ProblemError {
  actual?: string | undefined;
  value?: unknown;
}

export interface FindingContext {
  request: number;
  method: string;
  target: string;
  operation: string | null;
  location: Violation["location"];
  status?: number | undefined;
}

const EXCERPT_CHARACTERS = 120;

/**
 * The violation of one finding; `redact` is applied to every text in it, the excerpt before it
 * is cut short (so that no part of a secret survives the cut).
 */
export function toViolation(
  finding: Finding,
  context: FindingContext,
  redact: (text: string) => string,
): Violation {
  const where = finding.field === "" ? finding.location : `${finding.location} ${finding.field}`;
  const got = gotText(finding);
  const excerpt = finding.value === undefined ? undefined : excerptOf(finding.value, redact);
  return {
    time: new Date().toISOString(),
    request: context.request,
    method: context.method,
    target: redact(context.target),
    operation: context.operation,
    location: context.location,
    message: redact(
      `${context.operation ?? "(no operation)"} ${context.location}: ${where}: ${finding.message}${got}`,
    ),
    in: finding.location,
    field: redact(finding.field),
    rule: finding.rule,
    ...(context.status !== undefined && { status: context.status }),
    ...(finding.actual !== undefined && { actual: redact(finding.actual) }),
    ...(excerpt !== undefined && { excerpt }),
  };
}

/**
 * What a finding's message adds about what came: a status or a media type, which its words do not
 * name. A schema rule's words already say what came where it is short ("must be a string, not a
 * number"), so its JSON type is in `actual` only.
 */
export function gotText(finding: Finding): string {
  const named = finding.rule === "status" || finding.rule === "mediaType";
  return named && finding.actual !== undefined ? ` (got ${finding.actual})` : "";
}

function excerptOf(value: unknown, redact: (text: string) => string): string {
  const json = redact(JSON.stringify(value) ?? String(value));
  return json.length > EXCERPT_CHARACTERS ? `${json.slice(0, EXCERPT_CHARACTERS)}…` : json;
}

/**
 * JSON.parse's words without the text it quotes around the fault (`Unexpected token 's', ..."key":
 * sk_live_AB"... is not valid JSON`): the quote cuts whatever stands there short, an API key too,
 * so that no redaction finds it whole. What is left says what was wrong, and where when it can.
 */
export function jsonFault(message: string): string {
  return message.replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON(?=\)?$)/, "");
}

/** A problem with a request or response body, with the JSON type of the value it points at. */
export function bodyFinding(error: ProblemError, body: unknown): Finding {
  if (error.rule === "required") return error;
  const value = valueAt(body, error.field);
  return value === undefined ? error : { ...error, actual: jsonType(value), value };
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
