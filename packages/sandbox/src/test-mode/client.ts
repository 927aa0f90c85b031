// What the typed controls of every feature are made of: one openapi-fetch client of the test-mode
// document, whose types (src/generated/test-mode.ts) are generated from it, and the error of a
// call the sandbox refused. Each feature's controls.ts is its part of `sandboxControls`.
import openapiFetchDefault from "openapi-fetch";
import type { components, paths } from "../generated/test-mode.js";

type CreateClient = typeof openapiFetchDefault;
const imported = openapiFetchDefault as CreateClient | { default: CreateClient };
/**
 * openapi-fetch's `createClient`, the same function in both builds: a CommonJS build of a
 * `"type": "module"` package wraps `require("openapi-fetch")` as Node wraps CommonJS for ESM, so
 * the default import is openapi-fetch's whole exports object there (rolldown/rolldown#10800).
 */
const createClient: CreateClient = typeof imported === "function" ? imported : imported.default;

export type Schemas = components["schemas"];

/** The client of the test-mode document, bound to a sandbox's URL and an API key. */
export type ControlsClient = ReturnType<typeof createClient<paths>>;

type Post = { post: { requestBody?: { content: { "application/json": unknown } } } };
/** The JSON body a route takes. */
export type RequestJson<P extends keyof paths> = paths[P] extends Post
  ? NonNullable<paths[P]["post"]["requestBody"]>["content"]["application/json"]
  : never;
/** The JSON a route answers with. */
export type ResponseJson<P extends keyof paths> = paths[P] extends {
  post: { responses: { 200: { content: { "application/json": infer A } } } };
}
  ? A
  : never;

/** The filters of a listing route: its query without the paging. */
export type FiltersOf<P extends "/_sandbox/events" | "/_sandbox/requests"> = Omit<
  NonNullable<paths[P]["get"]["parameters"]["query"]>,
  "cursor" | "page_size"
>;

/** A sandbox route refused the call: its status and the problem body it answered with. */
export class SandboxControlError extends Error {
  override name = "SandboxControlError";
  readonly status: number;
  readonly body: unknown;

  constructor(method: string, path: string, status: number, body: unknown) {
    const detail = (body as { detail?: unknown } | undefined)?.detail;
    super(`${method} ${path} answered ${status}${typeof detail === "string" ? `: ${detail}` : ""}`);
    this.status = status;
    this.body = body;
  }
}

/**
 * The client of the sandbox at `baseUrl`, sending `apiKey` as X-API-Key. openapi-fetch's client is
 * made at the first call: making it reads the global `Request`, which loads Node's fetch (undici),
 * a tenth of the CPU of a sandbox's start, and the CLI's sandbox never calls a control.
 */
export function controlsClient(
  baseUrl: string,
  apiKey: string,
  fetchFunction?: typeof globalThis.fetch,
): ControlsClient {
  let client: ControlsClient | undefined;
  const made = () => {
    client ??= createClient<paths>({
      baseUrl: baseUrl.replace(/\/+$/, ""),
      headers: { "X-API-Key": apiKey },
      ...(fetchFunction !== undefined && { fetch: fetchFunction }),
    });
    return client;
  };
  return new Proxy({} as ControlsClient, { get: (_, name) => Reflect.get(made(), name) });
}

/** What an openapi-fetch call resolves to. */
interface Fetched<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a call that succeeded; a SandboxControlError for one the sandbox refused. */
export async function dataOf<T>(
  method: "GET" | "POST" | "PUT" | "DELETE",
  call: Promise<Fetched<T>>,
): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) {
    const { pathname } = new URL(response.url);
    throw new SandboxControlError(method, pathname, response.status, error);
  }
  return data as T;
}

/** Every item of a paged list, read a page of 100 at a time from the first. */
export async function everyItem<T>(
  pageAt: (query: {
    page_size: number;
    cursor?: string;
  }) => Promise<{ items: T[]; cursor?: string }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await pageAt({ page_size: 100, ...(cursor !== undefined && { cursor }) });
    items.push(...page.items);
    cursor = page.cursor;
  } while (cursor !== undefined);
  return items;
}

/** A path parameter `id`, as openapi-fetch takes it. */
export function idParam(value: string) {
  return { params: { path: { id: value } } };
}
