// Prism coerces query strings to numbers the way JavaScript does, so `0x10`, `1e1` and `10.0` pass
// as integers. The spec's `type: integer` allows decimal integers only; this check holds it to that.
// Prism's Ajv knows no `uint32` or `uint64` format, and checks `int64` only for a whole number (past
// 2^53 a number is not exact): a decimal integer's range is checked here, on its digits.

import type { ProblemError } from "../../http/index.js";
import type { Operations } from "../prism/index.js";
import { plainMessage } from "./schema-messages.js";

const DECIMAL_INTEGER = /^-?\d+$/;

type JsonSchema = { type?: string | string[]; format?: string; items?: JsonSchema };

/** The whole numbers each integer format takes, from the least to the most. */
const FORMAT_RANGES: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

/**
 * A problem for each integer query parameter of `operation` whose value is not a decimal integer
 * (rule `type`), or is one outside its format's range (rule `format`).
 */
export function nonDecimalIntegers(
  operation: Operations[number] | undefined,
  query: Record<string, string>,
): ProblemError[] {
  const problems: ProblemError[] = [];
  for (const parameter of operation?.request?.query ?? []) {
    const value = query[parameter.name];
    if (value === undefined || value === "") continue;
    const schema = (parameter.schema ?? {}) as JsonSchema;
    const integer = isInteger(schema) ? schema : isInteger(schema.items) ? schema.items : undefined;
    if (integer === undefined) continue;
    const values = integer === schema ? [value] : value.split(",");
    if (!values.every((item) => DECIMAL_INTEGER.test(item))) {
      problems.push({
        location: "query",
        field: parameter.name,
        rule: "type",
        message: "must be a whole number in decimal digits, such as 10",
      });
      continue;
    }
    const range = FORMAT_RANGES[integer.format ?? ""];
    const outside = range && values.find((item) => !within(item, range));
    if (outside === undefined) continue;
    problems.push({
      location: "query",
      field: parameter.name,
      rule: "format",
      message: plainMessage("format", `must match format "${integer.format}"`, {
        known: true,
        value: outside,
      }),
    });
  }
  return problems;
}

function within(digits: string, [least, most]: [bigint, bigint]): boolean {
  const value = BigInt(digits);
  return value >= least && value <= most;
}

function isInteger(schema: JsonSchema | undefined): boolean {
  const type = schema?.type;
  return type === "integer" || (Array.isArray(type) && type.includes("integer"));
}
