// Code samples for every operation: the hand-written TypeScript file samples/<operationId>.ts and a
// curl command generated from the spec. They go into a build copy of the spec as `x-codeSamples`,
// which Redoc shows as tabs; the hand-authored spec is never touched.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { deref, listOperations, parameterExample, requestBodyExample } from "@org/payments-spec";

/** @typedef {import("@org/payments-spec").OpenApiDocument} OpenApiDocument */
/** @typedef {import("@org/payments-spec").OperationEntry} OperationEntry */
/** @typedef {import("@org/payments-spec").Parameter} Parameter */
/** @typedef {{ lang: string, label: string, source: string }} CodeSample */

export const samplesDir = path.resolve(import.meta.dirname, "../samples");

/**
 * A deep copy of `doc` in which every operation carries its TypeScript and curl samples.
 * Fails, naming them, when an operation has no sample file or a sample file has no operation.
 * @param {OpenApiDocument} doc
 * @param {string} [dir] where the `<operationId>.ts` files are
 * @returns {OpenApiDocument}
 */
export function withCodeSamples(doc, dir = samplesDir) {
  const copy = structuredClone(doc);
  const operations = listOperations(copy);
  checkSampleFiles(
    operations.map((entry) => entry.operationId),
    dir,
  );
  for (const entry of operations) {
    /** @type {CodeSample[]} */
    const samples = [
      { lang: "TypeScript", label: "TypeScript", source: typescriptSample(entry.operationId, dir) },
      { lang: "curl", label: "curl", source: curlSample(copy, entry) },
    ];
    entry.operation["x-codeSamples"] = samples;
  }
  return copy;
}

/**
 * @param {string[]} operationIds
 * @param {string} dir
 */
function checkSampleFiles(operationIds, dir) {
  const files = readdirSync(dir).filter((name) => name.endsWith(".ts"));
  const wanted = new Set(operationIds.map((id) => `${id}.ts`));
  const missing = [...wanted].filter((name) => !files.includes(name));
  const stray = files.filter((name) => !wanted.has(name));
  const problems = [
    ...(missing.length ? [`no sample for: ${missing.join(", ")}`] : []),
    ...(stray.length ? [`sample without an operation: ${stray.join(", ")}`] : []),
  ];
  if (problems.length) {
    throw new Error(
      `Code samples in ${dir} do not match the spec's operationIds (${problems.join("; ")}). ` +
        "Every operation needs samples/<operationId>.ts.",
    );
  }
}

/**
 * @param {string} operationId
 * @param {string} dir
 */
function typescriptSample(operationId, dir) {
  return readFileSync(path.join(dir, `${operationId}.ts`), "utf8").trimEnd();
}

/**
 * A runnable curl command: the first server URL, the path with its example path parameters, the
 * required query parameters and those with an example, the API key from $PAYMENTS_API_KEY, a
 * fresh idempotency key on POST and the request body's first example.
 * @param {OpenApiDocument} doc
 * @param {OperationEntry} entry
 * @returns {string}
 */
export function curlSample(doc, entry) {
  const { method, path: apiPath, operation, parameters, operationId } = entry;
  const servers = /** @type {{ url: string }[] | undefined} */ (doc.servers);
  const baseUrl = (servers?.[0]?.url ?? "").replace(/\/$/, "");
  const resolvedPath = apiPath.replace(/\{([^}]+)\}/g, (_, name) => {
    const parameter = parameters.find((p) => p.in === "path" && p.name === name);
    if (!parameter) throw new Error(`${operationId}: path parameter {${name}} is not declared`);
    return encodeURIComponent(String(exampleOf(doc, parameter, operationId)));
  });
  const query = parameters
    .filter((p) => p.in === "query" && (p.required || p.example !== undefined))
    .flatMap((p) => queryPairs(p, exampleOf(doc, p, operationId)))
    .join("&");
  const url = `${baseUrl}${resolvedPath}${query ? `?${query}` : ""}`;

  const lines = [
    method === "get" ? `curl "${url}"` : `curl -X ${method.toUpperCase()} "${url}"`,
    '-H "X-API-Key: $PAYMENTS_API_KEY"',
  ];
  if (method === "post") lines.push('-H "IDEMPOTENCY-KEY: $(uuidgen)"');
  const body = bodyExampleOf(doc, operation, operationId);
  if (body !== undefined) {
    lines.push('-H "Content-Type: application/json; charset=utf-8"');
    const json = JSON.stringify(body, null, 2).replaceAll("\n", "\n  ");
    lines.push(`--data '${shellSingleQuoted(json)}'`);
  }
  return lines.join(" \\\n  ");
}

/**
 * A parameter's example; every parameter a curl sample shows must have one.
 * @param {OpenApiDocument} doc
 * @param {Parameter} parameter
 * @param {string} operationId
 * @returns {unknown}
 */
function exampleOf(doc, parameter, operationId) {
  const example = parameterExample(doc, parameter);
  if (example === undefined) {
    throw new Error(
      `${operationId}: ${parameter.in} parameter "${parameter.name}" needs an example for its curl sample`,
    );
  }
  return example;
}

/**
 * `name=value` pairs as OpenAPI's default query style (form) writes them.
 * @param {Parameter} parameter
 * @param {unknown} value
 * @returns {string[]}
 */
function queryPairs(parameter, value) {
  const key = encodeURIComponent(parameter.name);
  if (!Array.isArray(value)) return [`${key}=${encodeURIComponent(String(value))}`];
  if (parameter.explode === false) {
    return [`${key}=${value.map((item) => encodeURIComponent(String(item))).join(",")}`];
  }
  return value.map((item) => `${key}=${encodeURIComponent(String(item))}`);
}

/**
 * The request body's example; an operation with a JSON body must have one for its curl sample.
 * @param {OpenApiDocument} doc
 * @param {Record<string, any>} operation
 * @param {string} operationId
 * @returns {unknown}
 */
function bodyExampleOf(doc, operation, operationId) {
  const hasBody = deref(doc, operation.requestBody)?.content?.["application/json"] !== undefined;
  const example = requestBodyExample(doc, operation);
  if (hasBody && example === undefined) {
    throw new Error(`${operationId}: the JSON request body needs an example for its curl sample`);
  }
  return example;
}

/** @param {string} text */
function shellSingleQuoted(text) {
  return text.replaceAll("'", `'\\''`);
}
