// Runs Prism's HTTP mocker in-process: routing, security and request validation, and the
// spec's examples (or generated data) as responses. Error bodies are left to the caller. The
// request is routed once, by Prism's router: what follows works with the operation it matched
// and the path parameters read with that operation's template.
import { type ApiRequest, hasPreferences, type Preferences } from "../http/index.js";
import { cachedMock, cachedRoute, cachedValidateOutput } from "./caches/index.js";
import {
  type Components,
  type Operation,
  type Operations,
  pathParameters,
  pipeline,
  readOperations,
  validateOutput,
} from "./prism/index.js";
import { endOfListWhenFollowed, exampleMatchingBody } from "./shaping/index.js";
import type { PrismDiagnostic } from "./validation/index.js";
import { cachedValidateInput, cachedValidateSecurity } from "./validation/index.js";

export type { Operation, Operations };

/** The operation Prism's router matched, and the request's path parameters by its template. */
export interface Routed {
  operation: Operation;
  /** Each path parameter's value, percent-decoded. */
  params: Record<string, string>;
}

/** Prism's answer, with where the request was routed. */
export type PrismOutcome =
  | {
      kind: "response";
      routed: Routed;
      status: number;
      headers: Record<string, string>;
      body: unknown;
      /** Problems with the request; non-empty means Prism rejected it. */
      inputProblems: PrismDiagnostic[];
      /** Where the mocked response does not match the spec. */
      outputProblems: PrismDiagnostic[];
      /**
       * The same answer comes to every request with the same method, target, headers and body:
       * the spec's examples (not generated data), no preferences, no problem, and no callbacks
       * (which send requests of their own).
       */
      repeatable: boolean;
    }
  | ({ routed: Routed | undefined } & PrismRefusal);

/** Prism's refusal of a request it cannot route or negotiate. */
export type PrismRefusal = { kind: "error"; status: number; title: string; detail: string };

/** What Prism finds in a request without answering it: for the proxy, which forwards it instead. */
export type PrismCheck =
  | { kind: "checked"; routed: Routed; inputProblems: PrismDiagnostic[] }
  | PrismRefusal;

/** A response as the proxy received it, its body parsed as the mock's requests are. */
export interface PrismResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface PrismEngine {
  /**
   * Answers one request; `preferences` (from its `Prefer` header) override the mock's config.
   * With `checkResponse: false` the answer is not checked against the spec (no `outputProblems`):
   * for a caller that answers with a response of its own (the sandbox).
   */
  handle(
    request: ApiRequest,
    preferences?: Preferences,
    options?: { checkResponse?: boolean },
  ): PrismOutcome;
  /** Routes and validates one request (security included) as `handle` does, without answering it. */
  check(request: ApiRequest): PrismCheck;
  /** The operation Prism's router matches to `method` and `path`, if any (HEAD is read as GET). */
  route(method: string, path: string): Operation | undefined;
  /**
   * The name of the path parameter that segment `index` of `path` stands in, by the operation
   * Prism routes it to with `method` or, failing that, any method of the spec; "" when none.
   */
  segmentName(method: string, path: string, index: number): string;
  /** Prism's diagnostics of a response to `operation`: status, media type, headers and body. */
  checkResponse(operation: Operation, response: PrismResponse): PrismDiagnostic[];
  /** Lower-case header name → its spelling in the spec. */
  headerNames: ReadonlyMap<string, string>;
  /** The header the API key travels in. */
  apiKeyHeader: string;
  /** The spec's operations as Prism read them (the sandbox takes its examples and enums from them). */
  operations: Operations;
}

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
    // Prism's, with a shortcut for a request that sends its API key.
    validateSecurity: cachedValidateSecurity(),
    validateOutput,
    ...components,
  });
}

/** The engine of a spec file, or of a document given as JSON (the test mode's). */
export async function createPrismEngine(
  spec: string | object,
  dynamic: boolean,
): Promise<PrismEngine> {
  return prismEngineOf(await operationsToMock(spec), dynamic);
}

/**
 * The engine of a spec's operations as Prism read them before (the in-page sandbox's, which has no
 * OpenAPI reader).
 */
export function prismEngineOf(operations: Operations, dynamic: boolean): PrismEngine {
  const config = mockConfig(dynamic);
  const cachedRouter = cachedRoute(operations);
  const prism = createPrism({
    route: cachedRouter,
    validateInput: cachedValidateInput(),
    mock: cachedMock(),
    validateOutput: cachedValidateOutput(),
  });
  const route = routeBy(cachedRouter, operations);
  const apiKeyHeader = apiKeyHeaderOf(operations);
  return {
    handle: handlerOf(prism, operations, config),
    check: checkerOf(prism, operations, config),
    route,
    segmentName: segmentNamerOf(route, operations),
    checkResponse,
    headerNames: headerNamesOf(operations, apiKeyHeader),
    apiKeyHeader,
    operations,
  };
}

type Prism = ReturnType<typeof createPrism>;
type MockConfig = ReturnType<typeof mockConfig>;

/** The spec's operations; a spec without any is refused, as there is nothing to mock. */
async function operationsToMock(spec: string | object): Promise<Operations> {
  const operations = await readOperations(spec);
  if (operations.length === 0) {
    throw new Error(
      `The spec ${typeof spec === "string" ? spec : "given"} has no operations to mock`,
    );
  }
  return operations;
}

function mockConfig(dynamic: boolean) {
  return {
    // Shared by every request without preferences, so never changed (Prism's mocker gets a copy).
    mock: Object.freeze({ dynamic }) as Readonly<Preferences & { dynamic: boolean }>,
    checkSecurity: true,
    validateRequest: true,
    validateResponse: true,
    errors: false,
    upstreamProxy: undefined,
    isProxy: false as const,
  };
}

function handlerOf(
  prism: Prism,
  operations: Operations,
  config: MockConfig,
): PrismEngine["handle"] {
  const unchecked = { ...config, validateResponse: false };
  return function handle(
    request: ApiRequest,
    preferences: Preferences = {},
    { checkResponse = true }: { checkResponse?: boolean } = {},
  ): PrismOutcome {
    // A request without preferences is answered with the engine's own config, which the mock's
    // caches know by sight.
    const asked = hasPreferences(preferences);
    const mock = asked ? { ...config.mock, ...preferences } : config.mock;
    const base = checkResponse ? config : unchecked;
    const result = prism.answer(
      toPrismInput(request),
      operations,
      asked ? { ...base, mock } : base,
    );
    if (result._tag === "Left") {
      return {
        routed: result.operation && routedTo(result.operation, request.path),
        ...errorOf(result.left),
      };
    }
    const { output, validations } = result.right;
    const example =
      mock.dynamic || mock.exampleKey !== undefined
        ? undefined
        : exampleMatchingBody(result.operation, output.statusCode, request.body);
    return {
      routed: routedTo(result.operation, request.path),
      kind: "response",
      status: output.statusCode,
      headers: output.headers ?? {},
      body: endOfListWhenFollowed(request.query, example ?? output.body),
      inputProblems: validations.input,
      outputProblems: validations.output,
      repeatable:
        !asked &&
        !mock.dynamic &&
        validations.input.length === 0 &&
        (result.operation.callbacks ?? []).length === 0,
    };
  };
}

function checkerOf(prism: Prism, operations: Operations, config: MockConfig): PrismEngine["check"] {
  // Prism reads `validateResponse` from each request's config; a check answers nothing.
  const checkConfig = { ...config, validateResponse: false };
  return function check(request: ApiRequest): PrismCheck {
    const result = prism.check(toPrismInput(request), operations, checkConfig);
    if (result._tag === "Left") return errorOf(result.left);
    return {
      kind: "checked",
      routed: routedTo(result.operation, request.path),
      inputProblems: result.right.input,
    };
  };
}

function routeBy(
  cachedRouter: ReturnType<typeof cachedRoute>,
  operations: Operations,
): PrismEngine["route"] {
  return function route(method: string, path: string): Operation | undefined {
    const input = {
      method: (method === "HEAD" ? "get" : method.toLowerCase()) as "get",
      url: { path },
    };
    const routed = cachedRouter({ resources: operations, input });
    return routed._tag === "Right" ? routed.right : undefined;
  };
}

function segmentNamerOf(
  route: PrismEngine["route"],
  operations: Operations,
): PrismEngine["segmentName"] {
  const methods = [...new Set(operations.map((operation) => operation.method))];
  return function segmentName(method: string, path: string, index: number): string {
    for (const tried of [method, ...methods]) {
      const template = route(tried, path)?.path.split("/")[index];
      if (template !== undefined) return /^\{(.+)\}$/.exec(template)?.[1] ?? "";
    }
    return "";
  };
}

function checkResponse(operation: Operation, response: PrismResponse): PrismDiagnostic[] {
  const result = validateOutput({
    resource: operation,
    element: { statusCode: response.status, headers: response.headers, body: response.body },
  });
  return result._tag === "Left" ? result.left : [];
}

function routedTo(operation: Operation, path: string): Routed {
  return { operation, params: pathParameters(path, operation.path) };
}

function toPrismInput(request: ApiRequest) {
  return {
    method: request.method.toLowerCase() as "get",
    url: { path: request.path, query: request.query },
    headers: request.headers,
    body: request.body,
  };
}

function errorOf(left: Error): PrismRefusal {
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
