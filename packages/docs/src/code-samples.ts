// Code samples for every operation, both generated from the spec so that they follow its examples:
// a TypeScript call through @org/payments-client and a curl command. They go into a build copy of
// the spec as `x-codeSamples`, which Redoc shows as tabs; the hand-authored spec is never touched.

import type {
  OpenApiDocument,
  OperationEntry,
  OperationObject,
  Parameter,
} from "@org/payments-spec";
import { deref, listOperations, parameterExample, requestBodyExample } from "@org/payments-spec";

type CodeSample = { lang: string; label: string; source: string };

/**
 * The key a sample sends when `PAYMENTS_API_KEY` is unset: the sandbox takes any non-empty key,
 * so a sample copied without setting one still runs there (the real API answers it 401).
 */
export const SANDBOX_API_KEY = "sandbox-key";

/**
 * A shell command that prints a fresh (version 4) UUID with the shell alone, bash or zsh: no
 * Node, Python or `uuidgen` (missing on many Linux installs; an empty key is a 422).
 */
export const NEW_UUID_COMMAND =
  "printf '%04x%04x-%04x-4%03x-%04x-%04x%04x%04x' $RANDOM $RANDOM $RANDOM $((RANDOM % 4096)) $((RANDOM % 16384 + 32768)) $RANDOM $RANDOM $RANDOM";

/** A deep copy of `doc` in which every operation carries its TypeScript and curl samples. */
export function withCodeSamples(doc: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(doc);
  for (const entry of listOperations(copy)) {
    const samples: CodeSample[] = [
      { lang: "TypeScript", label: "TypeScript", source: typescriptSample(copy, entry) },
      { lang: "curl", label: "curl", source: curlSample(copy, entry) },
    ];
    entry.operation["x-codeSamples"] = samples;
  }
  return copy;
}

/** The base URL a sample defaults to: the first server's URL with its variables' defaults. */
export function defaultBaseUrl(doc: OpenApiDocument) {
  const servers = doc.servers as
    | { url: string; variables?: Record<string, { default: string }> }[]
    | undefined;
  const server = servers?.[0];
  const url = (server?.url ?? "").replace(
    /\{([^}]+)\}/g,
    (_, name: string) => server?.variables?.[name]?.default ?? "",
  );
  return url.replace(/\/$/, "");
}

/**
 * The operation's request through the client's path-style call, with the spec's examples: its
 * path parameters, the required query parameters and those with an example, and the request
 * body's first example. The base URL and API key come from the environment.
 */
export function typescriptSample(doc: OpenApiDocument, entry: OperationEntry): string {
  const { method, path: apiPath, operation, operationId } = entry;
  const params: Record<string, unknown> = {};
  const pathParams = exampleParameters(doc, entry, "path");
  const query = exampleParameters(doc, entry, "query");
  if (Object.keys(pathParams).length > 0) params.path = pathParams;
  if (Object.keys(query).length > 0) params.query = query;
  const init: Record<string, unknown> = {};
  if (Object.keys(params).length > 0) init.params = params;
  const body = bodyExampleOf(doc, operation, operationId);
  if (body !== undefined) init.body = body;
  const args = [
    JSON.stringify(apiPath),
    ...(Object.keys(init).length > 0 ? [tsLiteral(init)] : []),
  ];
  return [
    'import { createPaymentsClient } from "@org/payments-client";',
    "",
    "const client = createPaymentsClient({",
    `  apiKey: process.env.PAYMENTS_API_KEY ?? ${JSON.stringify(SANDBOX_API_KEY)},`,
    `  baseUrl: process.env.PAYMENTS_BASE_URL ?? ${JSON.stringify(defaultBaseUrl(doc))},`,
    "});",
    "",
    ...(method === "post"
      ? ["// The client sends an IDEMPOTENCY-KEY and reuses it on retries."]
      : []),
    `const { data, error } = await client.${method.toUpperCase()}(${args.join(", ")});`,
    "if (error) throw error; // a PaymentsApiError: status, body, requestId",
    "console.log(data);",
  ].join("\n");
}

/**
 * Name → example of the operation's parameters in `location` that a sample shows: every path
 * parameter, and the query parameters that are required or have an example.
 */
function exampleParameters(
  doc: OpenApiDocument,
  { parameters, operationId }: OperationEntry,
  location: "path" | "query",
) {
  return Object.fromEntries(
    parameters
      .filter(
        (p) => p.in === location && (location === "path" || p.required || p.example !== undefined),
      )
      .map((p) => [p.name, exampleOf(doc, p, operationId)]),
  );
}

/** A value as TypeScript source: JSON, with keys unquoted where they are identifiers. */
export function tsLiteral(value: unknown) {
  return JSON.stringify(value, null, 2).replace(/^(\s*)"([A-Za-z_$][\w$]*)":/gm, "$1$2:");
}

/**
 * A curl command that runs as copied: the base URL from $PAYMENTS_BASE_URL (else the spec's
 * default), the path with its example path parameters, the required query parameters and those
 * with an example, the API key from $PAYMENTS_API_KEY (else the sandbox key), a fresh
 * idempotency key on POST and the request body's first example.
 */
export function curlSample(doc: OpenApiDocument, entry: OperationEntry): string {
  const { method, path: apiPath, operation, parameters, operationId } = entry;
  const resolvedPath = apiPath.replace(/\{([^}]+)\}/g, (_, name) => {
    const parameter = parameters.find((p) => p.in === "path" && p.name === name);
    if (!parameter) throw new Error(`${operationId}: path parameter {${name}} is not declared`);
    return encodeURIComponent(String(exampleOf(doc, parameter, operationId)));
  });
  const query = parameters
    .filter((p) => p.in === "query" && (p.required || p.example !== undefined))
    .flatMap((p) => queryPairs(p, exampleOf(doc, p, operationId)))
    .join("&");
  const url = `\${PAYMENTS_BASE_URL:-${defaultBaseUrl(doc)}}${resolvedPath}${query ? `?${query}` : ""}`;

  // A stream (Server-Sent Events) is shown as it comes: curl's -N sends each part on at once.
  const streams = answersStream(doc, entry);
  const lines = [
    method === "get"
      ? `curl${streams ? " -N" : ""} "${url}"`
      : `curl -X ${method.toUpperCase()} "${url}"`,
    `-H "X-API-Key: \${PAYMENTS_API_KEY:-${SANDBOX_API_KEY}}"`,
  ];
  const idempotencyKey = parameters.find(
    (p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key",
  );
  if (idempotencyKey) lines.push(`-H "${idempotencyKey.name}: $(${NEW_UUID_COMMAND})"`);
  const body = bodyExampleOf(doc, operation, operationId);
  if (body !== undefined) {
    lines.push('-H "Content-Type: application/json; charset=utf-8"');
    const json = JSON.stringify(body, null, 2).replaceAll("\n", "\n  ");
    lines.push(`--data '${shellSingleQuoted(json)}'`);
  }
  return lines.join(" \\\n  ");
}

/** Whether the operation answers Server-Sent Events, which go on until the client stops. */
function answersStream(doc: OpenApiDocument, entry: OperationEntry): boolean {
  const responses = (entry.operation.responses ?? {}) as Record<
    string,
    { $ref?: string; content?: object }
  >;
  return Object.entries(responses).some(([code, response]) => {
    const name = response.$ref?.split("/").pop();
    const resolved =
      name === undefined
        ? response
        : (doc.components?.responses?.[name] as typeof response | undefined);
    return (
      /^2/.test(code) && resolved?.content !== undefined && "text/event-stream" in resolved.content
    );
  });
}

/** A parameter's example; every parameter a curl sample shows must have one. */
function exampleOf(doc: OpenApiDocument, parameter: Parameter, operationId: string): unknown {
  const example = parameterExample(doc, parameter);
  if (example === undefined) {
    throw new Error(
      `${operationId}: ${parameter.in} parameter "${parameter.name}" needs an example for its curl sample`,
    );
  }
  return example;
}

/** `name=value` pairs as OpenAPI's default query style (form) writes them. */
function queryPairs(parameter: Parameter, value: unknown): string[] {
  const key = encodeURIComponent(parameter.name);
  if (!Array.isArray(value)) return [`${key}=${encodeURIComponent(String(value))}`];
  if (parameter.explode === false) {
    return [`${key}=${value.map((item) => encodeURIComponent(String(item))).join(",")}`];
  }
  return value.map((item) => `${key}=${encodeURIComponent(String(item))}`);
}

/** The request body's example; an operation with a JSON body must have one for its curl sample. */
function bodyExampleOf(
  doc: OpenApiDocument,
  operation: OperationObject,
  operationId: string,
): unknown {
  const hasBody = deref(doc, operation.requestBody)?.content?.["application/json"] !== undefined;
  const example = requestBodyExample(doc, operation);
  if (hasBody && example === undefined) {
    throw new Error(`${operationId}: the JSON request body needs an example for its curl sample`);
  }
  return example;
}

function shellSingleQuoted(text: string) {
  return text.replaceAll("'", `'\\''`);
}
