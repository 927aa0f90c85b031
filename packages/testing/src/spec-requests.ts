// Builds requests from the spec: a valid one for each operation (from the spec's examples), and
// valid variants of it (every optional parameter, every enum value, page_size at its limits).
import {
  deref,
  listOperations,
  loadSpec,
  type OpenApiDocument,
  type OperationEntry,
  type Parameter,
  parameterExample,
  requestBodyExample,
  sampleValue,
} from "@org/payments-spec";

export const spec = loadSpec();
export const operations = listOperations(spec);
export const API_KEY = "test-api-key-not-a-secret";

/**
 * How long a test's request waits for an answer before it fails rather than hang: long enough for
 * a loaded 2-core machine (a 5 s limit failed there once), and it judges no speed.
 */
export const REQUEST_TIMEOUT_MS = 30_000;

/** A request in parts, so that tests can break one part. */
export interface SpecRequest {
  operationId: string;
  method: string;
  path: string;
  pathParams: Record<string, string>;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  /** A JSON body (serialized on send), or rawBody to send bytes as they are. */
  body?: unknown;
  rawBody?: string;
}

export function operation(operationId: string): OperationEntry {
  return operationOf(operations, operationId);
}

function operationOf(entries: OperationEntry[], operationId: string): OperationEntry {
  const found = entries.find((entry) => entry.operationId === operationId);
  if (!found) throw new Error(`No operation ${operationId} in the spec`);
  return found;
}

function parameterValue(parameter: Parameter, doc = spec): string | string[] {
  const value = parameterExample(doc, parameter) ?? sampleValue(doc, parameter.schema);
  return Array.isArray(value) ? value.map(String) : String(value);
}

/** The operation called with its required parameters and the example body. */
export function validRequest(operationId: string): SpecRequest {
  return validRequestOf(spec, operations, operationId);
}

/** Another spec's operations (a test fixture's), with the valid request of each. */
export function specRequests(doc: OpenApiDocument) {
  const entries = listOperations(doc);
  return {
    operations: entries,
    validRequest: (operationId: string) => validRequestOf(doc, entries, operationId),
  };
}

function validRequestOf(
  doc: OpenApiDocument,
  entries: OperationEntry[],
  operationId: string,
): SpecRequest {
  const entry = operationOf(entries, operationId);
  const request: SpecRequest = {
    operationId,
    method: entry.method.toUpperCase(),
    path: entry.path,
    pathParams: {},
    query: {},
    headers: { "X-API-Key": API_KEY },
  };
  for (const parameter of entry.parameters.filter((p) => p.required)) {
    setParameter(request, parameter, parameterValue(parameter, doc));
  }
  const body = requestBodyExample(doc, entry.operation);
  if (body !== undefined) {
    request.body = structuredClone(body);
    request.headers["Content-Type"] = "application/json; charset=utf-8";
  }
  return request;
}

function setParameter(request: SpecRequest, parameter: Parameter, value: string | string[]): void {
  if (parameter.in === "path") request.pathParams[parameter.name] = String(value);
  else if (parameter.in === "query") request.query[parameter.name] = value;
  else if (parameter.in === "header") request.headers[parameter.name] = String(value);
}

/** Valid variants of the operation's request, each named for what it varies. */
export function validVariants(operationId: string): Array<[string, SpecRequest]> {
  const entry = operation(operationId);
  const variants: Array<[string, SpecRequest]> = [
    ["required parameters", validRequest(operationId)],
  ];
  const optional = entry.parameters.filter((p) => !p.required);
  if (optional.length > 0) {
    const all = validRequest(operationId);
    for (const parameter of optional) setParameter(all, parameter, parameterValue(parameter));
    variants.push(["every optional parameter", all]);
  }
  for (const parameter of optional) {
    const schema = deref(spec, parameter.schema) ?? {};
    for (const value of schema.enum ?? []) {
      const variant = validRequest(operationId);
      setParameter(variant, parameter, String(value));
      variants.push([`${parameter.name}=${value}`, variant]);
    }
    if (parameter.name === "page_size") {
      for (const value of [schema.minimum, schema.maximum]) {
        const variant = validRequest(operationId);
        setParameter(variant, parameter, String(value));
        variants.push([`page_size=${value}`, variant]);
      }
    }
  }
  return variants;
}

export interface SentResponse {
  status: number;
  contentType: string | null;
  body: unknown;
}

/** Sends the request; a request that gets no answer fails instead of hanging. */
export async function send(baseUrl: string, request: SpecRequest): Promise<SentResponse> {
  const path = request.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(request.pathParams[name] ?? ""),
  );
  const url = new URL(baseUrl + path);
  for (const [name, value] of Object.entries(request.query)) {
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, item);
  }
  const response = await fetch(url, {
    method: request.method,
    headers: request.headers,
    body:
      request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body)),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  const contentType = response.headers.get("content-type");
  return {
    status: response.status,
    contentType,
    body: contentType?.includes("json") && text !== "" ? JSON.parse(text) : text,
  };
}
