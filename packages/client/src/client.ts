/** Builds the client: openapi-fetch as the typed core, the transport as its `fetch`. */
import { PaymentsApiError, PaymentsResponseError } from "./errors.js";
import { bindResources, type SendCall } from "./facade.js";
import { operations } from "./generated/operations.js";
import type { PaymentsResources } from "./generated/resources.js";
import { createClient } from "./openapi-fetch-interop.js";
import {
  checkHeaderValue,
  checkMaxRetries,
  checkOptions,
  checkTimeoutMs,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type PaymentsClientOptions,
} from "./options.js";
import { type Paginate, paginate } from "./paginate.js";
import { checkParams } from "./params.js";
import { redactText } from "./redact.js";
import { sleep } from "./retry-policy.js";
import { type Call, perform, type TransportConfig } from "./transport.js";
import type { CallOptions, PaymentsMethod } from "./types.js";

export interface PaymentsClient extends PaymentsResources {
  /** Calls a GET operation by path; resolves to `{ data, error, response }`. */
  GET: PaymentsMethod<"get">;
  /** Calls a POST operation by path; an `IDEMPOTENCY-KEY` is added unless you pass one. */
  POST: PaymentsMethod<"post">;
  /** Calls a PATCH operation by path. */
  PATCH: PaymentsMethod<"patch">;
  /** Every item (or, with `.pages()`, every page) of a list operation, following its cursors. */
  paginate: Paginate;
  /** The same client, acting for a sub-partner on the operations that take `X-SUB-PARTNER-ID`. */
  forSubPartner(subPartnerId: string): PaymentsClient;
}

type OperationId = keyof typeof operations;

/** Each operation's operationId by method, then path, as path-style calls name operations. */
const operationIds = new Map<string, Map<string, OperationId>>();
for (const [id, [method, path]] of Object.entries(operations)) {
  const byPath = operationIds.get(method) ?? new Map<string, OperationId>();
  operationIds.set(method, byPath.set(path, id as OperationId));
}

/** The operationId of `method path`, or `METHOD /path` for a path the spec does not have. */
function operationName(method: string, path: string): string {
  return operationIds.get(method)?.get(path) ?? `${method} ${path}`;
}

/** The answer's `x-request-id` (or `request-id`), with the API key taken out should it echo it. */
function requestIdOf(response: Response, apiKey: string): string | undefined {
  const id = response.headers.get("x-request-id") ?? response.headers.get("request-id");
  return id === null ? undefined : redactText(id, apiKey);
}

/** The options of a call made without any, shared rather than allocated per call. */
const NO_OPTIONS: Record<string, unknown> = {};

/** What the client takes from the platform; tests replace it to control waiting and time. */
export type Platform = Pick<TransportConfig, "sleep" | "random" | "now">;

const defaultPlatform: Platform = { sleep, random: Math.random, now: Date.now };

/** Creates a client for the partner payments API. Throws a TypeError/RangeError on bad options. */
export function createPaymentsClient(options: PaymentsClientOptions): PaymentsClient {
  return createClientOn(defaultPlatform, options);
}

type CoreRequest = (
  method: string,
  path: string,
  init: object,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

export function createClientOn(platform: Platform, options: PaymentsClientOptions): PaymentsClient {
  checkOptions(options);
  const { apiKey, subPartnerId, fetch: customFetch } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  // A custom fetch sees only the Request, so the attempt's signal goes into the Request. The
  // platform's fetch takes it beside the Request instead, which spares undici following a second
  // signal on every call. Either is called without a receiver: browsers reject `fetch` called as
  // another object's method.
  const config: TransportConfig = {
    apiKey,
    fetch: customFetch
      ? (request) => customFetch(request)
      : (request, signal) => globalThis.fetch(request, { signal }),
    settlesOnAbort: !customFetch,
    ...platform,
  };
  // The public types live on PaymentsClient; inside, calls are by runtime method and path.
  const core = createClient({ baseUrl: options.baseUrl }).request as unknown as CoreRequest;

  const request: SendCall = async (method, path, init: CallOptions & Record<string, unknown>) => {
    checkTimeoutMs("timeoutMs", init.timeoutMs);
    checkMaxRetries("maxRetries", init.maxRetries);
    checkParams(init.params);
    const {
      timeoutMs: callTimeout = timeoutMs,
      maxRetries: callRetries = maxRetries,
      signal,
      ...rest
    } = init;
    const operation = operationName(method, path);
    const call: Call = {
      method,
      operation,
      subPartnerId: operations[operation as OperationId]?.[2] ? subPartnerId : undefined,
      timeoutMs: callTimeout,
      timeoutLimit: init.timeoutMs === undefined ? "client" : "call",
      maxRetries: callRetries,
      signal: signal as AbortSignal | undefined,
    };
    // A redirect is answered, not followed: fetch would send X-API-Key on to wherever it points.
    const result = await perform(config, call, (attemptSignal, fetch) =>
      core(method, path, {
        ...rest,
        redirect: "manual",
        signal: customFetch ? attemptSignal : undefined,
        fetch,
      }),
    );
    const { error, response } = result;
    const requestId = requestIdOf(response, apiKey);
    const replayed = response.headers.get("idempotent-replayed") === "true";
    // openapi-fetch's own result: on a 2xx it holds no error.
    if (response.ok) {
      // Every operation answers a 2xx with JSON: an empty body (a 204, a proxy's bare 200) has no
      // data, and would come back as `undefined` typed as the data.
      if (result.data === undefined) {
        throw new PaymentsResponseError(operation, response.status, call.idempotencyKey, undefined);
      }
      return { ...(result as { data?: unknown; response: Response }), requestId, replayed };
    }
    const apiError = new PaymentsApiError({
      status: response.status,
      // The transport already took the API key out of the body's text.
      body: error,
      operation,
      idempotencyKey: call.idempotencyKey,
      requestId,
      replayed,
    });
    return { ...result, error: apiError, requestId, replayed };
  };

  const method = (name: string) => (path: string, init?: Record<string, unknown>) =>
    request(name, path, init ?? NO_OPTIONS);

  return {
    ...bindResources(operations, request),
    GET: method("GET"),
    POST: method("POST"),
    PATCH: method("PATCH"),
    paginate: (path: string, init?: object) =>
      paginate(request, operationName("GET", path), path, init),
    forSubPartner(id: string) {
      checkHeaderValue("subPartnerId", id);
      return createClientOn(platform, { ...options, subPartnerId: id });
    },
  } as unknown as PaymentsClient;
}
