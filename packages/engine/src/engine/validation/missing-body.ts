// A request without the body its operation requires, in the mock's words: Prism says only "Body
// parameter is required", and says it of a body sent as `false`, `0`, `""` or `null` too.
import type { ProblemError } from "../../http/index.js";
import type { Operation } from "../prism/index.js";
import { plainMessage } from "./schema-messages.js";

/** Prism's diagnostic of a required body it did not find, as diagnostics.ts words it. */
export function isMissingBody(error: ProblemError): boolean {
  return (
    error.location === "body" &&
    error.field === "" &&
    error.rule === "required" &&
    error.message === "Body parameter is required"
  );
}

type Schema = { type?: unknown; required?: unknown };

/**
 * What to say instead: with no body at all, each field the body's schema requires is required
 * (so the problem names them, as for a body sent without them); with a body Prism read as none (a
 * falsy JSON value), what its type must be.
 */
export function missingBodyErrors(operation: Operation | undefined, body: unknown): ProblemError[] {
  const schema = bodySchema(operation);
  if (body !== undefined) {
    const type = typeof schema.type === "string" ? schema.type : "object";
    const message = plainMessage("type", `must be ${type}`, { known: true, value: body });
    return [{ location: "body", field: "", rule: "type", message }];
  }
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === "string")
    : [];
  if (required.length === 0) {
    const what = schema.type === "object" ? "a JSON object" : "a JSON body";
    return [
      {
        location: "body",
        field: "",
        rule: "required",
        message: `is required; the request sent none: send ${what}`,
      },
    ];
  }
  return required.map((field) => ({
    location: "body",
    field,
    rule: "required",
    message: "is required; the request sent no body: send a JSON object with it",
  }));
}

/** The schema of the operation's JSON body (its first one), or an empty one. */
export function bodySchema(operation: Operation | undefined): Schema {
  const contents = operation?.request?.body?.contents ?? [];
  const json = contents.find((content) => /json/i.test(content.mediaType)) ?? contents[0];
  const schema = json?.schema;
  return typeof schema === "object" && schema !== null ? (schema as Schema) : {};
}
