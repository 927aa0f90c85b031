// Validates response bodies against the spec's 200 response schemas with ajv (JSON Schema 2020-12,
// the dialect of OpenAPI 3.1).
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { operation, spec } from "./spec-requests.js";

const SPEC_ID = "https://payments-spec.invalid/partner-payments.json";
const isInteger = (value: number) => Number.isInteger(value);

function createAjv() {
  // strict: false, because OpenAPI schemas carry keywords JSON Schema does not know (`example`).
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat("int64", { type: "number", validate: isInteger });
  ajv.addFormat("uint32", {
    type: "number",
    validate: (n: number) => isInteger(n) && n >= 0 && n < 2 ** 32,
  });
  ajv.addFormat("uint64", { type: "number", validate: (n: number) => isInteger(n) && n >= 0 });
  ajv.addSchema({ $id: SPEC_ID, components: spec.components });
  return ajv;
}

const ajv = createAjv();

/** The operation's success schema, with its local `$ref`s pointed at the registered spec. */
function successSchema(operationId: string): object {
  const schema =
    operation(operationId).operation.responses?.["200"]?.content?.["application/json"]?.schema;
  if (schema === undefined) throw new Error(`${operationId} has no 200 application/json schema`);
  return JSON.parse(
    JSON.stringify(schema).replaceAll('"#/components/', `"${SPEC_ID}#/components/`),
  );
}

/** The ways `body` breaks the operation's success schema; empty when it matches. */
export function responseProblems(operationId: string, body: unknown): string[] {
  const validate = ajv.compile(successSchema(operationId));
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (error: ErrorObject) => `${error.instancePath || "/"} ${error.message}`,
  );
}
