// The mock's own error format. The API description leaves error bodies unspecified, so the mock
// answers every rejected request with an RFC 9457 problem that lists each problem it found.

/** Where in the request (or, for the proxy, the response) a problem was found. */
export type ProblemLocation =
  | "security"
  | "header"
  | "path"
  | "query"
  | "body"
  | "route"
  | "status";

/** One problem with a request: where it is, which field, which rule it breaks, and in words. */
export interface ProblemError {
  location: ProblemLocation;
  /** The field's name as the spec spells it (dotted for nested body fields); "" for the whole location. */
  field: string;
  /** The rule that was broken, such as `required`, `format`, `maximum`, `enum`, `pattern` or `json`. */
  rule: string;
  message: string;
}

/** The body of every 4xx/5xx the mock itself produces: RFC 9457's fields, sent as `application/json`. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** The problems found, at most MAX_ERRORS of them. */
  errors: ProblemError[];
  /** How many more problems there were, when there were more than MAX_ERRORS. */
  omitted?: number;
}

/** A small request must not buy a large answer: a problem lists at most this many errors. */
export const MAX_ERRORS = 50;

/**
 * The spec declares every error answer as `application/json` of unspecified shape, so the mock's
 * problems are sent as that, not as `application/problem+json`: a contract tool that checks the
 * mock's answers against the spec then finds every one of them declared.
 */
export const PROBLEM_CONTENT_TYPE = "application/json";

const TYPE_PREFIX = "urn:org:payments-mock:problem:";

export function problem(
  status: number,
  kind: string,
  title: string,
  errors: ProblemError[],
): Problem {
  const listed = errors.slice(0, MAX_ERRORS);
  const omitted = errors.length - listed.length;
  const detail =
    listed.length === 0
      ? title
      : `${listed.map((error) => describeError(error)).join("; ")}${omitted > 0 ? `; and ${omitted} more` : ""}`;
  return {
    type: `${TYPE_PREFIX}${kind}`,
    title,
    status,
    detail,
    errors: listed,
    ...(omitted > 0 && { omitted }),
  };
}

function describeError({ location, field, message }: ProblemError): string {
  return field === "" ? `${location}: ${message}` : `${location} ${field}: ${message}`;
}
