// Prism coerces query strings to numbers the way JavaScript does, so `0x10`, `1e1` and `10.0` pass
// as integers. The spec's `type: integer` allows decimal integers only; this check holds it to that.

import type { ProblemError } from "../../http/index.js";
import type { Operations } from "../prism/index.js";

const DECIMAL_INTEGER = /^-?\d+$/;

type JsonSchema = { type?: string | string[]; items?: JsonSchema };

/** A problem for each integer query parameter of `operation` whose value is not a decimal integer. */
export function nonDecimalIntegers(
  operation: Operations[number] | undefined,
  query: Record<string, string>,
): ProblemError[] {
  const problems: ProblemError[] = [];
  for (const parameter of operation?.request?.query ?? []) {
    const value = query[parameter.name];
    if (value === undefined || value === "") continue;
    const schema = (parameter.schema ?? {}) as JsonSchema;
    const values = isInteger(schema) ? [value] : isInteger(schema.items) ? value.split(",") : [];
    if (values.every((item) => DECIMAL_INTEGER.test(item))) continue;
    problems.push({
      location: "query",
      field: parameter.name,
      rule: "type",
      message: "must be a whole number in decimal digits, such as 10",
    });
  }
  return problems;
}

function isInteger(schema: JsonSchema | undefined): boolean {
  const type = schema?.type;
  return type === "integer" || (Array.isArray(type) && type.includes("integer"));
}
