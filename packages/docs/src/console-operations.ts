// The console's view of every operation, made from the spec: its fields with the spec's
// examples filled in, the shared headers it takes, and its JSON body's examples.
import type { OpenApiDocument, OperationEntry, Parameter } from "@org/payments-spec";
import { deref, listOperations, parameterExample } from "@org/payments-spec";
import type { BodyExample, ConsoleOperation, ConsoleParameter } from "../console/operation.ts";

const SUB_PARTNER_HEADER = "x-sub-partner-id";
const IDEMPOTENCY_HEADER = "idempotency-key";

/**
 * `filtersStartEmpty`: optional query parameters start empty (their example as a hint) even when
 * they have an example; for the test-mode routes, whose query parameters are all filters (an
 * event log filtered by the examples' ids would answer an empty page).
 */
export function consoleOperations(
  doc: OpenApiDocument,
  { filtersStartEmpty = false }: { filtersStartEmpty?: boolean } = {},
): ConsoleOperation[] {
  return listOperations(doc).map((entry) => consoleOperation(doc, entry, filtersStartEmpty));
}

function consoleOperation(
  doc: OpenApiDocument,
  entry: OperationEntry,
  filtersStartEmpty: boolean,
): ConsoleOperation {
  const { operationId, method, path, operation, parameters } = entry;
  const header = (name: string) =>
    parameters.find((p) => p.in === "header" && p.name.toLowerCase() === name)?.name;
  const subPartnerHeader = header(SUB_PARTNER_HEADER);
  const idempotencyHeader = header(IDEMPOTENCY_HEADER);
  const body = bodyOf(doc, operation);
  return {
    operationId,
    method: method.toUpperCase(),
    path,
    summary: String(operation.summary ?? operationId),
    parameters: parameters
      .filter((p) => p.in !== "cookie")
      .filter((p) => p.name !== subPartnerHeader && p.name !== idempotencyHeader)
      .map((p) => consoleParameter(doc, p, filtersStartEmpty)),
    ...(subPartnerHeader && { subPartnerHeader }),
    ...(idempotencyHeader && { idempotencyHeader }),
    ...(body && { body }),
  };
}

/**
 * A field of the form. Like the samples, it starts with the spec's example where the parameter
 * is in the path, required, or has an example of its own; other optional fields start empty
 * (and are not sent) with the example or default as a hint.
 */
function consoleParameter(
  doc: OpenApiDocument,
  parameter: Parameter,
  filtersStartEmpty: boolean,
): ConsoleParameter {
  const schema = deref(doc, parameter.schema) ?? {};
  const items = deref(doc, schema.items) ?? {};
  const type = ["integer", "number", "boolean", "array"].includes(schema.type)
    ? schema.type
    : "string";
  const enumValues = (type === "array" ? items.enum : schema.enum) as unknown[] | undefined;
  const example = parameterExample(doc, parameter);
  const shown =
    parameter.in === "path" ||
    parameter.required === true ||
    (parameter.example !== undefined && !(filtersStartEmpty && parameter.in === "query"));
  const format = (type === "array" ? items.format : schema.format) as string | undefined;
  return {
    name: parameter.name,
    in: parameter.in as ConsoleParameter["in"],
    required: parameter.in === "path" || parameter.required === true,
    type,
    ...(format && { format }),
    ...(enumValues && { enum: enumValues.map(String) }),
    value: shown && example !== undefined ? asText(example) : "",
    ...(!shown && example !== undefined && { placeholder: asText(example) }),
    ...(parameter.description && { description: parameter.description.trim() }),
  };
}

function asText(value: unknown) {
  return Array.isArray(value) ? value.map(String).join(", ") : String(value);
}

/** The JSON body's named examples (or its one `example`), in the spec's order. */
function bodyOf(
  doc: OpenApiDocument,
  operation: OperationEntry["operation"],
): ConsoleOperation["body"] {
  const requestBody = deref(doc, operation.requestBody);
  const media = requestBody?.content?.["application/json"];
  if (!media) return undefined;
  const examples: BodyExample[] =
    media.example !== undefined
      ? [{ name: "example", summary: "Example", value: media.example }]
      : Object.entries((media.examples ?? {}) as Record<string, unknown>).map(([name, node]) => {
          const example = deref(doc, node);
          return { name, summary: String(example.summary ?? name), value: example.value };
        });
  return { required: requestBody.required === true, examples };
}
