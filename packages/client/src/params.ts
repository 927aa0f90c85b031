/** The checks that refuse, before any attempt, parameter values that could not be sent. */
import { checkHeaderValue } from "./options.js";

/** What a call's `params` may hold. */
interface Params {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  header?: Record<string, unknown>;
}

// A lone surrogate has no UTF-8 form: encodeURIComponent throws on it.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Throws a TypeError naming the parameter: a path parameter empty, `.` or `..` (the URL would drop
 * the segment or climb one, and the call would reach another operation), a string with a lone
 * surrogate, or a header that is not a valid header value (fetch would refuse it on every attempt).
 */
export function checkParams(params: unknown): void {
  const { path, query, header } = (params ?? {}) as Params;
  for (const [name, value] of Object.entries(path ?? {})) {
    if (value === "" || value === "." || value === "..") {
      throw new TypeError(`path parameter ${name} must not be empty, "." or ".."`);
    }
    checkWellFormed(`path parameter ${name}`, value);
  }
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      checkWellFormed(`query parameter ${name}`, item);
    }
  }
  for (const [name, value] of Object.entries(header ?? {})) {
    if (typeof value === "string") checkHeaderValue(`header ${name}`, value);
  }
}

function checkWellFormed(name: string, value: unknown): void {
  if (typeof value === "string" && LONE_SURROGATE.test(value)) {
    throw new TypeError(`${name} must be well-formed text (it has a lone UTF-16 surrogate)`);
  }
}
