// Reads the proxy's two files as a CI step would: each line of the report (--report) must be a
// whole `Violation` and nothing else; each line of the traffic file (--traffic) an answered request.
import { readFileSync } from "node:fs";
import type { Violation } from "../../src/index.js";

/** Every field of a `Violation`, and whether a line must have it (the type keeps this exact). */
const FIELDS: Record<keyof Violation, "required" | "optional"> = {
  time: "required",
  request: "required",
  method: "required",
  target: "required",
  operation: "required",
  location: "required",
  message: "required",
  in: "required",
  field: "required",
  rule: "required",
  status: "optional",
  actual: "optional",
  excerpt: "optional",
};

/** The lines of a file that is not empty, each parsed as JSON. */
function jsonLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The report's violations; throws at the first line that is not exactly a `Violation`. */
export function reportViolations(file: string): Violation[] {
  return jsonLines(file).map((record, index) => {
    const where = `line ${index + 1} of ${file}`;
    for (const [field, presence] of Object.entries(FIELDS)) {
      if (presence === "required" && !(field in record)) {
        throw new Error(`${where} has no ${field}: ${JSON.stringify(record)}`);
      }
    }
    const extra = Object.keys(record).filter((field) => !Object.hasOwn(FIELDS, field));
    if (extra.length > 0) {
      throw new Error(
        `${where} is not a violation (${extra.join(", ")}): ${JSON.stringify(record)}`,
      );
    }
    if (record.location !== "request" && record.location !== "response") {
      throw new Error(`${where} has location ${JSON.stringify(record.location)}`);
    }
    for (const field of ["time", "method", "target", "message", "in", "field", "rule"] as const) {
      if (typeof record[field] !== "string") throw new Error(`${where}: ${field} is not a string`);
    }
    if (typeof record.request !== "number") throw new Error(`${where}: request is not a number`);
    return record as unknown as Violation;
  });
}

/** The traffic file's lines: each request the upstream answered, `[operation, status]`. */
export function trafficLines(file: string): [string | null, number][] {
  return jsonLines(file).map((record) => {
    if (record.type !== "exchange")
      throw new Error(`not a traffic line: ${JSON.stringify(record)}`);
    return [record.operation as string | null, record.status as number];
  });
}
