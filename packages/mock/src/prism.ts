// Runs Prism's HTTP mocker in-process: routing, security and request validation, and the
// spec's examples (or generated data) as responses. Error bodies are left to the caller.
import { createLogger } from "@stoplight/prism-core";
import { createInstance, getHttpOperationsFromSpec } from "@stoplight/prism-http";
import type { PrismDiagnostic } from "./diagnostics.js";
import type { Preferences } from "./prefer.js";
import { endOfListWhenFollowed, exampleMatchingBody, operationFor } from "./response-shaping.js";

export type Operations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;

export interface PrismRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
}

export type Operation = Operations[number];

/** Prism's answer, with the spec's operation the request reached (undefined when none). */
export type PrismOutcome = { operation: Operation | undefined } & (
  | {
      kind: "response";
      status: number;
      headers: Record<string, string>;
      body: unknown;
      /** Problems with the request; non-empty means Prism rejected it. */
      inputProblems: PrismDiagnostic[];
      /** Where the mocked response does not match the spec. */
      outputProblems: PrismDiagnostic[];
    }
  | { kind: "error"; status: number; title: string; detail: string }
);

export interface PrismEngine {
  /** Answers one request; `preferences` (from its `Prefer` header) override the mock's config. */
  handle(request: PrismRequest, preferences?: Preferences): Promise<PrismOutcome>;
  /** Lower-case header name → its spelling in the spec. */
  headerNames: ReadonlyMap<string, string>;
  /** The header the API key travels in. */
  apiKeyHeader: string;
  /** The spec's operations as Prism read them (the sandbox takes its examples and enums from them). */
  operations: Operations;
}

export async function createPrismEngine(spec: string, dynamic: boolean): Promise<PrismEngine> {
  const operations = await getHttpOperationsFromSpec(spec);
  if (operations.length === 0) throw new Error(`The spec ${spec} has no operations to mock`);
  const config = {
    mock: { dynamic },
    checkSecurity: true,
    validateRequest: true,
    validateResponse: true,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false as const,
  };
  const prism = createInstance(
    config,
    // Prism's own logging is replaced by the mock's one line per request.
    { logger: createLogger("payments-mock", { level: "silent" }) },
  );

  async function handle(
    request: PrismRequest,
    preferences: Preferences = {},
  ): Promise<PrismOutcome> {
    const mock = { ...config.mock, ...preferences };
    const operation = operationFor(operations, request.method, request.path);
    const result = await prism.request(
      {
        method: request.method.toLowerCase() as "get",
        url: { path: request.path, query: request.query },
        headers: request.headers,
        body: request.body,
      },
      operations,
      { ...config, mock },
    )();
    if (result._tag === "Left") {
      const error = result.left as Error & { status?: number; detail?: string };
      return {
        operation,
        kind: "error",
        status: error.status ?? 500,
        title: error.message,
        detail: error.detail ?? error.message,
      };
    }
    const { output, validations } = result.right;
    const example =
      mock.dynamic || mock.exampleKey !== undefined
        ? undefined
        : exampleMatchingBody(operation, output.statusCode, request.body);
    return {
      operation,
      kind: "response",
      status: output.statusCode,
      headers: output.headers ?? {},
      body: endOfListWhenFollowed(request.query, example ?? output.body),
      inputProblems: validations.input,
      outputProblems: validations.output,
    };
  }

  const apiKeyHeader = apiKeyHeaderOf(operations);
  return {
    handle,
    headerNames: headerNamesOf(operations, apiKeyHeader),
    apiKeyHeader,
    operations,
  };
}

function headerNamesOf(operations: Operations, apiKeyHeader: string): Map<string, string> {
  const names = new Map([[apiKeyHeader.toLowerCase(), apiKeyHeader]]);
  for (const operation of operations) {
    for (const header of operation.request?.headers ?? []) {
      names.set(header.name.toLowerCase(), header.name);
    }
  }
  return names;
}

/** The header of the spec's API-key security scheme (the one a 401 names). */
function apiKeyHeaderOf(operations: Operations): string {
  for (const scheme of operations.flatMap((operation) => operation.security ?? []).flat()) {
    if (scheme.type === "apiKey" && scheme.in === "header") return scheme.name;
  }
  return "X-API-Key";
}
