// Validates the answers of the sandbox's own routes against the test-mode document
// (openapi/test-mode.yaml), with ajv as response-validator.ts does for the API: its `$ref`s into
// partner-payments.yaml point at the API's document, registered beside it.
import { deref, listOperations, loadSpec, specPath, testModeSpecPath } from "@org/payments-spec";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const API_ID = "https://payments-spec.invalid/partner-payments.json";
const TEST_MODE_ID = "https://payments-spec.invalid/test-mode.json";

const testModeSpec = loadSpec(testModeSpecPath);
export const testModeOperations = listOperations(testModeSpec);
const apiSpec = loadSpec(specPath);

/** The document's JSON with every `$ref` absolute: to its own components or the API's. */
function absoluteRefs(node: unknown): unknown {
  return JSON.parse(
    JSON.stringify(node)
      .replaceAll('"./partner-payments.yaml#/', `"${API_ID}#/`)
      .replaceAll('"#/', `"${TEST_MODE_ID}#/`),
  );
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addFormat("uint32", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= 0 });
ajv.addFormat("int64", { type: "number", validate: Number.isInteger });
ajv.addSchema({
  $id: API_ID,
  components: JSON.parse(JSON.stringify(apiSpec.components).replaceAll('"#/', `"${API_ID}#/`)),
});
ajv.addSchema({ $id: TEST_MODE_ID, components: absoluteRefs(testModeSpec.components) });

const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
function validator(schema: unknown) {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (validate === undefined) {
    validate = ajv.compile(absoluteRefs(schema) as object);
    compiled.set(key, validate);
  }
  return validate;
}

/** The ways `value` breaks `schema` (a schema of the test-mode document); empty when it matches. */
function schemaProblems(schema: unknown, value: unknown): string[] {
  const validate = validator(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error: ErrorObject) => `${error.instancePath || "/"} ${error.message}`,
  );
}

/** The ways `value` breaks the test-mode document's schema `name`; empty when it matches. */
export function testModeSchemaProblems(name: string, value: unknown): string[] {
  return schemaProblems({ $ref: `#/components/schemas/${name}` }, value);
}

export function testModeOperation(operationId: string) {
  const found = testModeOperations.find((entry) => entry.operationId === operationId);
  if (found === undefined) throw new Error(`the test-mode document has no ${operationId}`);
  return found;
}

/** The response of the operation that covers `status`: its own, else `default`. */
export function declaredResponseKey(operationId: string, status: number): string | undefined {
  const responses = testModeOperation(operationId).operation.responses ?? {};
  return [String(status), `${String(status)[0]}XX`, "default"].find((key) => key in responses);
}

/**
 * Why an answer is not one the operation declares, or [] when it is: a declared status (or
 * `default`), the media type it declares and a body its schema admits.
 */
export function undeclaredControlAnswer(
  operationId: string,
  answer: { status: number; contentType: string | null; body: unknown },
): string[] {
  const key = declaredResponseKey(operationId, answer.status);
  if (key === undefined) return [`status ${answer.status} is not declared`];
  const responses = testModeOperation(operationId).operation.responses;
  const response = deref(testModeSpec, responses[key]) as {
    content?: Record<string, { schema?: unknown }>;
  };
  const mediaType = answer.contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  const declared = response.content?.[mediaType];
  if (declared === undefined) return [`response ${key} does not declare "${mediaType}"`];
  return schemaProblems(declared.schema ?? {}, answer.body).map(
    (problem) => `response ${key}: ${problem}`,
  );
}
