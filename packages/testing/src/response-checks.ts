// Validates answers against the responses a spec declares (the shipped spec unless told), with ajv
// (JSON Schema 2020-12, the dialect of OpenAPI 3.1).
import { deref, listOperations, type OpenApiDocument } from "@org/payments-spec";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { spec } from "./spec-requests.ts";

const SPEC_ID = "https://payments-spec.invalid/partner-payments.json";
const isInteger = (value: number) => Number.isInteger(value);

function createAjv(doc: OpenApiDocument) {
  // strict: false, because OpenAPI schemas carry keywords JSON Schema does not know (`example`).
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat("int64", { type: "number", validate: isInteger });
  ajv.addFormat("uint32", {
    type: "number",
    validate: (n: number) => isInteger(n) && n >= 0 && n < 2 ** 32,
  });
  ajv.addFormat("uint64", { type: "number", validate: (n: number) => isInteger(n) && n >= 0 });
  ajv.addSchema({ $id: SPEC_ID, components: doc.components });
  return ajv;
}

type MediaTypes = Record<string, { schema?: unknown }>;

/** The checks of answers against the responses `doc` declares. */
export function answerChecks(doc: OpenApiDocument) {
  const ajv = createAjv(doc);
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  const operations = listOperations(doc);

  function operation(operationId: string) {
    const found = operations.find((entry) => entry.operationId === operationId);
    if (!found) throw new Error(`No operation ${operationId} in the spec`);
    return found;
  }

  /** A schema of the spec compiled once, with its local `$ref`s pointed at the registered spec. */
  function validator(schema: unknown) {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(
        JSON.parse(key.replaceAll('"#/components/', `"${SPEC_ID}#/components/`)),
      );
      compiled.set(key, validate);
    }
    return validate;
  }

  function schemaProblems(schema: unknown, body: unknown): string[] {
    const validate = validator(schema);
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (error: ErrorObject) => `${error.instancePath || "/"} ${error.message}`,
    );
  }

  /** The ways `body` breaks the operation's success schema; empty when it matches. */
  function responseProblems(operationId: string, body: unknown): string[] {
    const schema =
      operation(operationId).operation.responses?.["200"]?.content?.["application/json"]?.schema;
    if (schema === undefined) throw new Error(`${operationId} has no 200 application/json schema`);
    return schemaProblems(schema, body);
  }

  /**
   * Why an answer is not one the operation declares, or [] when it is: its status must be a declared
   * code, range (`4XX`) or `default`, and its media type and body must match what that response says.
   */
  function undeclaredAnswer(
    operationId: string,
    answer: { status: number; contentType: string | null; body: unknown },
  ): string[] {
    const responses = operation(operationId).operation.responses ?? {};
    const key = [String(answer.status), `${String(answer.status)[0]}XX`, "default"].find(
      (candidate) => candidate in responses,
    );
    if (key === undefined) return [`status ${answer.status} is not declared`];
    const response = deref(doc, responses[key]) as { content?: MediaTypes };
    const mediaTypes = response.content ?? {};
    if (Object.keys(mediaTypes).length === 0) {
      return answer.body === "" ? [] : [`response ${key} declares no body, got one`];
    }
    const mediaType = answer.contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
    const declared = mediaTypes[mediaType];
    if (declared === undefined) {
      return [`response ${key} does not declare the media type "${mediaType}"`];
    }
    return schemaProblems(declared.schema ?? {}, answer.body).map(
      (problem) => `response ${key} ${mediaType}: ${problem}`,
    );
  }

  return { responseProblems, undeclaredAnswer };
}

export const { responseProblems, undeclaredAnswer } = answerChecks(spec);
