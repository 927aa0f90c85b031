/** The client's types: the spec's `paths` with client-filled headers made optional. */
import type { FetchResponse, MaybeOptionalInit } from "openapi-fetch";
import type { PaymentsApiError } from "./errors.js";
import type { ClientPaths } from "./generated/client-paths.js";

export type { ClientPaths };

type HttpMethod = "get" | "post" | "patch";
type MediaType = `${string}/${string}`;
type Empty = Record<never, never>;

/** The paths that have an operation for `Method`. */
export type PathsWith<Method extends HttpMethod> = {
  [Path in keyof ClientPaths]: ClientPaths[Path] extends { [M in Method]: object } ? Path : never;
}[keyof ClientPaths];

/** Options of one call, on top of openapi-fetch's (`params`, `body`, `signal`, `headers`…). */
export interface CallOptions {
  /** Per-attempt timeout for this call, in ms (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /** Retries for this call (default: the client's `maxRetries`). */
  maxRetries?: number;
}

/** The data of a 2xx response of `Op`. */
export type SuccessData<Op, Init = Empty> =
  Op extends Record<string | number, unknown>
    ? Exclude<FetchResponse<Op, Init, MediaType>, { data?: never }>["data"]
    : never;

/** What every path-style result carries besides `data` or `error`. */
export interface ResultMeta {
  response: Response;
  /** The answer's `x-request-id` (or `request-id`) header, to quote to support. */
  requestId: string | undefined;
  /** True when the answer was replayed for a repeated `IDEMPOTENCY-KEY` (`Idempotent-Replayed`). */
  replayed: boolean;
}

/**
 * What a path-style call resolves to: `data` on 2xx, else `error`; always the `response`, its
 * request id and whether it was replayed.
 */
export type PaymentsResult<Op, Init> =
  | ({ data: SuccessData<Op, Init>; error?: never } & ResultMeta)
  | ({ data?: never; error: PaymentsApiError } & ResultMeta);

/**
 * The `init` argument: optional exactly when nothing in it is required (`{}` is one). One check
 * of the whole type, rather than a walk of its keys: it is instantiated at every call.
 */
export type InitArg<Init, Extra = CallOptions> = Empty extends Init
  ? [init?: Init & Extra]
  : [init: Init & Extra];

/** A path-style method (`GET`, `POST`, `PATCH`), typed by path like openapi-fetch's. */
export type PaymentsMethod<Method extends HttpMethod> = <
  Path extends PathsWith<Method>,
  Init extends MaybeOptionalInit<ClientPaths[Path], Method>,
>(
  path: Path,
  ...init: InitArg<Init>
) => Promise<PaymentsResult<ClientPaths[Path][Method], Init>>;
