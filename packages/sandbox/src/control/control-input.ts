// Checks of what a client sends to the sandbox's own routes: each failure is a 422 problem naming
// the body field and the rule it breaks, as the API's request validation answers.
import { isObject } from "@org/payments-engine/http/is-object.js";
import type { ProblemError } from "@org/payments-engine/http/problem.js";
import { type Answer, problemAnswer } from "../api/answer.js";

/** A body field's value, checked: the value, or the problem with it. */
export type Checked<T> = { value: T } | { error: ProblemError };

export const invalidField = (field: string, rule: string, message: string): ProblemError => ({
  location: "body",
  field,
  rule,
  message,
});

/** The 422 answer listing the problems. */
export function invalidBody(errors: ProblemError[]): Answer {
  return problemAnswer(422, "invalid-request", "Invalid request", errors);
}

/** Reads the checked fields of a body; the problems of all of them when any fails. */
export function readFields<T extends Record<string, unknown>>(
  checks: {
    [K in keyof T]: Checked<T[K]>;
  },
): { fields: T } | { errors: ProblemError[] } {
  const errors: ProblemError[] = [];
  const fields: Record<string, unknown> = {};
  for (const [name, checked] of Object.entries(checks) as [string, Checked<unknown>][]) {
    if ("error" in checked) errors.push(checked.error);
    else fields[name] = checked.value;
  }
  return errors.length > 0 ? { errors } : { fields: fields as T };
}

/** Refuses fields the route does not take. */
export function unknownFields(
  body: Record<string, unknown>,
  known: readonly string[],
): ProblemError[] {
  return Object.keys(body)
    .filter((name) => !known.includes(name))
    .map((name) =>
      invalidField(
        name,
        "additionalProperties",
        `is not a field of this route; it takes ${known.join(", ")}`,
      ),
    );
}

export function requiredString(body: Record<string, unknown>, field: string): Checked<string> {
  const value = body[field];
  if (value === undefined) return { error: invalidField(field, "required", "is required") };
  if (typeof value !== "string" || value === "") {
    return { error: invalidField(field, "type", "must be a non-empty string") };
  }
  return { value };
}

export function optionalString(
  body: Record<string, unknown>,
  field: string,
): Checked<string | undefined> {
  const value = body[field];
  if (value === undefined) return { value: undefined };
  if (typeof value !== "string") return { error: invalidField(field, "type", "must be a string") };
  return { value };
}

export function optionalBoolean(
  body: Record<string, unknown>,
  field: string,
): Checked<boolean | undefined> {
  const value = body[field];
  if (value === undefined || typeof value === "boolean") return { value };
  return { error: invalidField(field, "type", "must be true or false") };
}

/** An optional value that must be one of `allowed`. */
export function optionalEnum<T extends string>(
  body: Record<string, unknown>,
  field: string,
  allowed: readonly T[],
): Checked<T | undefined> {
  const value = body[field];
  if (value === undefined) return { value: undefined };
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    return { error: invalidField(field, "enum", `must be one of ${allowed.join(", ")}`) };
  }
  return { value: value as T };
}

/** A decimal string greater than zero, such as "1000.00". */
export function positiveDecimal(body: Record<string, unknown>, field: string): Checked<string> {
  const checked = requiredString(body, field);
  if ("error" in checked) return checked;
  if (!/^\d{1,15}(\.\d{1,18})?$/.test(checked.value) || /^[0.]+$/.test(checked.value)) {
    return {
      error: invalidField(
        field,
        "format",
        'must be a decimal string greater than 0, such as "1000.00" (at most 15 digits before the point, 18 after)',
      ),
    };
  }
  return checked;
}

/** The body as an object (none is an empty one), or the 422 saying it must be one. */
export function objectBody(body: unknown): { body: Record<string, unknown> } | { answer: Answer } {
  if (body === undefined) return { body: {} };
  if (isObject(body)) return { body };
  return { answer: invalidBody([invalidField("", "type", "the body must be a JSON object")]) };
}
