/** The resource facade's runtime binder and the types its generated signatures are written in. */
import type { paths } from "@org/payments-types";
import type { PaymentsApiError } from "./errors.js";
import { IDEMPOTENCY_KEY, SUB_PARTNER_ID } from "./transport.js";
import type { CallOptions, SuccessData } from "./types.js";

type Operation<P, M> = P extends keyof paths
  ? M extends keyof paths[P]
    ? NonNullable<paths[P][M]>
    : never
  : never;

/** The type of path parameter `Name` of an operation. */
export type PathParam<P, M, Name extends string> =
  Operation<P, M> extends { parameters: { path: infer Path } }
    ? Name extends keyof Path
      ? Path[Name]
      : never
    : never;

/** The query parameters of an operation. */
export type Query<P, M> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The JSON request body of an operation. */
export type Body<P, M> =
  Operation<P, M> extends { requestBody?: { content: { "application/json": infer B } } }
    ? B
    : never;

/** The data of an operation's 2xx response. */
export type Data<P, M> = SuccessData<Operation<P, M>>;

/** Options of every facade method. */
export interface RequestOptions extends CallOptions {
  /** Aborts the call, including waits between retries; it then rejects with an `AbortError`. */
  signal?: AbortSignal;
}

/** On operations that take `X-SUB-PARTNER-ID`. */
export interface SubPartnerOption {
  /** The sub-partner to act for in this call (overrides the client's). */
  subPartnerId?: string;
}

/** On operations that take `IDEMPOTENCY-KEY` (every POST). */
export interface IdempotencyOption {
  /** Your own idempotency key for this call; by default a random UUID, the same on every retry. */
  idempotencyKey?: string;
}

type FacadeOptions = RequestOptions & SubPartnerOption & IdempotencyOption;

/**
 * Each operation by operationId: [METHOD, path, takes `X-SUB-PARTNER-ID`, takes input after the
 * path parameters, its facade resource, its facade method].
 */
export type OperationTable = Record<
  string,
  readonly [
    method: "GET" | "POST" | "PATCH",
    path: string,
    // 1 or 0: shorter than true and false in the bundle.
    takesSubPartner: 0 | 1,
    takesInput: 0 | 1,
    resource: string,
    name: string,
  ]
>;

/** How the facade sends a call: the client's path-style `request`. */
export type SendCall = (
  method: string,
  path: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: PaymentsApiError }>;

type FacadeMethod = (...args: unknown[]) => Promise<unknown>;

/** Builds the facade's objects from the generated table. */
export function bindResources(
  operations: OperationTable,
  send: SendCall,
): Record<string, Record<string, FacadeMethod>> {
  const facade: Record<string, Record<string, FacadeMethod>> = {};
  for (const [method, path, , takesInput, resource, name] of Object.values(operations)) {
    facade[resource] ??= {};
    facade[resource][name] = facadeMethod(send, method, path, takesInput);
  }
  return facade;
}

/** `(…pathParams, input?, options?)` → the path-style call; returns its data or throws its error. */
function facadeMethod(
  send: SendCall,
  method: string,
  path: string,
  takesInput: 0 | 1,
): FacadeMethod {
  const names = Array.from(path.matchAll(/\{([^}]+)\}/g), (match) => match[1] as string);
  return async (...args) => {
    const pathParams = Object.fromEntries(names.map((name, i) => [name, args[i]]));
    const input = takesInput ? args[names.length] : undefined;
    const options = (args[names.length + takesInput] ?? {}) as FacadeOptions;
    const { subPartnerId, idempotencyKey, ...callOptions } = options;
    // openapi-fetch leaves out a header whose value is undefined.
    const header = { [SUB_PARTNER_ID]: subPartnerId, [IDEMPOTENCY_KEY]: idempotencyKey };
    const isGet = method === "GET";
    const { data, error } = await send(method, path, {
      ...callOptions,
      params: { path: pathParams, query: isGet ? input : undefined, header },
      body: isGet ? undefined : input,
    });
    if (error) throw error;
    return data;
  };
}
