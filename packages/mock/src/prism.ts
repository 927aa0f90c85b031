// Runs Prism's HTTP mocker in-process: routing, security and request validation, and the
// spec's examples (or generated data) as responses. Error bodies are left to the caller.
// Prism's validators, from the module that holds them: the package's index also loads its
// OpenAPI reader and its forwarder, which answering a request needs neither of.
import type { PrismHttpComponents } from "@stoplight/prism-http";
import { validateOutput, validateSecurity } from "@stoplight/prism-http/dist/validator/index.js";
import type { PrismDiagnostic } from "./diagnostics.js";
import { cachedValidateInput } from "./input-validation.js";
import { cachedMock, cachedValidateOutput } from "./mock-cache.js";
import type { Operations } from "./operations-snapshot.js";
import { pipeline } from "./pipeline.js";
import type { Preferences } from "./prefer.js";
import { readOperations } from "./read-operations.js";
import { endOfListWhenFollowed, exampleMatchingBody, operationFor } from "./response-shaping.js";
import { cachedRoute } from "./route-cache.js";

export type { Operations };

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

/** What Prism finds in a request without answering it: for the proxy, which forwards it instead. */
export type PrismCheck =
  | { kind: "checked"; operation: Operation; inputProblems: PrismDiagnostic[] }
  | { kind: "error"; status: number; title: string; detail: string };

/** A response as the proxy received it, its body parsed as the mock's requests are. */
export interface PrismResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface PrismEngine {
  /** Answers one request; `preferences` (from its `Prefer` header) override the mock's config. */
  handle(request: PrismRequest, preferences?: Preferences): Promise<PrismOutcome>;
  /** Routes and validates one request (security included) as `handle` does, without answering it. */
  check(request: PrismRequest): Promise<PrismCheck>;
  /** Prism's diagnostics of a response to `operation`: status, media type, headers and body. */
  checkResponse(operation: Operation, response: PrismResponse): PrismDiagnostic[];
  /** Lower-case header name → its spelling in the spec. */
  headerNames: ReadonlyMap<string, string>;
  /** The header the API key travels in. */
  apiKeyHeader: string;
  /** The spec's operations as Prism read them (the sandbox takes its examples and enums from them). */
  operations: Operations;
}

type Components = PrismHttpComponents;

/**
 * Prism's own logging is replaced by the mock's one line per request. A silent pino logger still
 * makes a child logger for each request; this one does nothing at all.
 */
export const silentLogger = {
  child: () => silentLogger,
  debug() {},
  info() {},
  success() {},
  warn() {},
  error() {},
} as unknown as Components["logger"];

/**
 * Prism's `createInstance` without a forwarder (the mock never proxies): its pipeline with its
 * security check and response validator, and the mock's route, request validation and mocker.
 */
function createPrism(
  components: Pick<Components, "route" | "validateInput" | "mock"> & Partial<Components>,
) {
  return pipeline({
    logger: silentLogger,
    // As Prism's createInstance passes it: it reads only a request's headers and URL.
    validateSecurity: validateSecurity as unknown as Components["validateSecurity"],
    validateOutput,
    ...components,
  });
}

export async function createPrismEngine(spec: string, dynamic: boolean): Promise<PrismEngine> {
  const operations = await readOperations(spec);
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
  const route = cachedRoute(operations);
  const validateInput = cachedValidateInput();
  const prism = createPrism({
    route,
    validateInput,
    mock: cachedMock(),
    validateOutput: cachedValidateOutput(),
  });

  async function handle(
    request: PrismRequest,
    preferences: Preferences = {},
  ): Promise<PrismOutcome> {
    const mock = { ...config.mock, ...preferences };
    const operation = operationFor(operations, request.method, request.path);
    const result = await prism.request(toPrismInput(request), operations, { ...config, mock });
    if (result._tag === "Left") return { operation, ...errorOf(result.left) };
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

  // The same pipeline with a "mocker" that answers with the operation Prism routed to, so that
  // a request is checked exactly as `handle` checks it and its response against that operation.
  // Prism reads `validateResponse` from each request's config: with the mock's, it would check
  // that stand-in answer against the spec at every request and throw the finding away.
  const checkConfig = { ...config, validateResponse: false };
  const checker = createPrism({
    route,
    validateInput,
    mock:
      ({ resource }) =>
      () => ({ _tag: "Right", right: { statusCode: 200, headers: {}, body: resource } }),
  });

  async function check(request: PrismRequest): Promise<PrismCheck> {
    const result = await checker.request(toPrismInput(request), operations, checkConfig);
    if (result._tag === "Left") return errorOf(result.left);
    return {
      kind: "checked",
      operation: result.right.output.body as Operation,
      inputProblems: result.right.validations.input,
    };
  }

  function checkResponse(operation: Operation, response: PrismResponse): PrismDiagnostic[] {
    const result = validateOutput({
      resource: operation,
      element: { statusCode: response.status, headers: response.headers, body: response.body },
    });
    return result._tag === "Left" ? result.left : [];
  }

  const apiKeyHeader = apiKeyHeaderOf(operations);
  return {
    handle,
    check,
    checkResponse,
    headerNames: headerNamesOf(operations, apiKeyHeader),
    apiKeyHeader,
    operations,
  };
}

function toPrismInput(request: PrismRequest) {
  return {
    method: request.method.toLowerCase() as "get",
    url: { path: request.path, query: request.query },
    headers: request.headers,
    body: request.body,
  };
}

/** Prism's refusal of a request it cannot route or negotiate. */
function errorOf(left: Error): { kind: "error"; status: number; title: string; detail: string } {
  const error = left as Error & { status?: number; detail?: string };
  return {
    kind: "error",
    status: error.status ?? 500,
    title: error.message,
    detail: error.detail ?? error.message,
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
