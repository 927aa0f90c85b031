// The sandbox as MSW request handlers: every route of the API and of its test mode under
// `baseUrl`, answered by a real sandbox in the test's process (Node's setupServer) or page (the
// browser's setupWorker), with no server and no port. The sandbox is made at the first request or
// control, so the handlers are ready to spread at once. Where it runs is the entry's: Node's
// (index.ts) opens a sandbox on the spec's file, a browser's (browser.ts) the in-page sandbox.
import type { DeliveryCallback, DeliveryChaos, FetchSandbox } from "@org/payments-sandbox";
import {
  newApiKey,
  type SandboxControls,
  type SandboxPartner,
  sandboxControls,
  sandboxPartner,
} from "@org/payments-sandbox/controls";
import { type HttpHandler, http } from "msw";

export interface SandboxHandlersOptions {
  /**
   * The API's base URL your app sends to (such as `https://api.example.test`, or one ending in the
   * service's path prefix): the handlers answer under it. An http(s) URL with no query or fragment.
   */
  baseUrl: string;
  /**
   * Gets each webhook delivery instead of its webhook's url; what it returns is the receiver's
   * status (default 200), a throw a failed delivery, as is one that does not settle within 2 s.
   * Without it, deliveries are POSTed with fetch.
   */
  onDelivery?: DeliveryCallback;
  /** The key the returned controls send. Default: a new key, a partner of its own. */
  apiKey?: string;
  /** The key whose partner holds the whole seed (every other key starts with a part of it). Default `sandbox-key`. */
  exampleKey?: string;
  /** A seed object instead of the one made from the spec's examples. */
  seed?: object;
  /**
   * Path of the OpenAPI document to answer. Default: the copy of the partner payments spec shipped
   * in the package. Node only: in a browser the handlers answer the shipped spec.
   */
  spec?: string;
  /** Duplicate and reorder webhook deliveries, deterministically from the seed. */
  deliveryChaos?: DeliveryChaos;
}

/**
 * The handlers (spread them into setupServer or setupWorker), with the typed controls of the
 * partner of `apiKey`, in the names of the HTTP controls.
 */
export interface SandboxHandlers extends Array<HttpHandler>, SandboxControls {
  /** The base URL the handlers answer under. */
  readonly baseUrl: string;
  /** The key the controls send: give it to your client. */
  readonly apiKey: string;
  /** A partner of its own for one test: a new key, with the controls bound to it. */
  newPartner(): SandboxPartner;
  /** Answers a request as the handlers do, without MSW (a client's `fetch`). */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /** Stops the sandbox (its clock's scheduler, its store). Call it when the test file ends. */
  close(): Promise<void>;
}

/** What the handlers' sandbox is opened with, beside the options given. */
export interface OpenedSandboxOptions extends Omit<SandboxHandlersOptions, "onDelivery" | "spec"> {
  apiKey: string;
  webhookTransport: "fetch" | DeliveryCallback;
  idleDays: number;
}

/**
 * MSW handlers answering the API and its test mode under `baseUrl` from a sandbox of their own,
 * which `open` makes.
 */
export function handlersOver(
  open: (options: OpenedSandboxOptions) => Promise<FetchSandbox>,
  options: SandboxHandlersOptions,
): SandboxHandlers {
  const { baseUrl, onDelivery, apiKey = newApiKey(), spec: _, ...rest } = options;
  const url = handlersBaseUrl(baseUrl);
  checkOptions({ ...options, apiKey });
  let sandbox: Promise<FetchSandbox> | undefined;
  let closed = false;
  const opened = () => {
    // A sandbox opened after close() would run on with no one to close it.
    if (closed) throw new Error("sandboxHandlers: the handlers were closed; make new ones");
    sandbox ??= open({
      ...rest,
      baseUrl: url,
      apiKey,
      webhookTransport: onDelivery ?? "fetch",
      // A test's sandbox is one process's: its partners stay as long as it does.
      idleDays: 0,
    });
    return sandbox;
  };
  const handle = async (request: Request) => (await opened()).handle(request);
  const fetch = (input: RequestInfo | URL, init?: RequestInit) =>
    handle(new Request(typeof input === "string" ? new URL(input, `${url}/`) : input, init));
  const handlers: HttpHandler[] = [http.all(under(url), ({ request }) => handle(request))];
  return Object.assign(handlers, {
    baseUrl: url,
    apiKey,
    ...sandboxControls(url, { apiKey, fetch }),
    newPartner: () => sandboxPartner(url, { fetch }),
    fetch,
    close: async () => {
      closed = true;
      // A sandbox that failed to open (a bad seed) has nothing to close: its error was each request's.
      if (sandbox !== undefined) await (await sandbox.catch(() => undefined))?.close();
    },
  });
}

/**
 * The base URL the handlers answer under, without a trailing slash: an http(s) URL, with a path
 * or none, and nothing MSW cannot match a request's URL against (a query, a fragment, credentials).
 */
function handlersBaseUrl(baseUrl: string): string {
  const parsed = URL.parse(baseUrl);
  if (
    parsed === null ||
    (parsed.protocol !== "http:" && parsed.protocol !== "https:") ||
    parsed.search !== "" ||
    parsed.hash !== "" ||
    parsed.username !== "" ||
    parsed.password !== ""
  ) {
    throw new TypeError(
      `sandboxHandlers: baseUrl ${JSON.stringify(baseUrl)} is not an absolute http(s) URL without a query, fragment or credentials; give one such as https://api.example.test`,
    );
  }
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, "");
}

/**
 * What MSW matches the requests under `url` with: a regular expression of the URL as it is, where
 * a path pattern would read `:`, `*`, `(`, `)`, `+`, `{` or `}` in it as MSW's own syntax (a
 * parameter, a wildcard, a group) and answer other paths, or none. MSW 2 and 3 both match a
 * regular expression against the request's origin and path (no query or fragment), as the URL
 * writes them, so `url` (the WHATWG form of the base URL) is compared byte for byte.
 */
function under(url: string): RegExp {
  return new RegExp(`^${url.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&")}/`);
}

/**
 * Refuses at once, naming the option and its rule, what would otherwise fail at the first request
 * or not at all: an example key no request could send, a seed or a delivery callback of the wrong
 * kind. Keys are not quoted.
 */
function checkOptions(options: SandboxHandlersOptions & { apiKey: string }) {
  const { apiKey, exampleKey, seed, onDelivery, deliveryChaos } = options;
  // As the client's rule for its apiKey: what fetch can send as X-API-Key.
  const isHeaderValue = (key: unknown) => typeof key === "string" && HEADER_VALUE.test(key);
  const rules: [broken: boolean, rule: string][] = [
    [
      !isHeaderValue(apiKey),
      "apiKey must be a non-empty valid HTTP header value (Latin-1, no line breaks, controls or outer spaces); leave it out for a new key",
    ],
    [
      exampleKey !== undefined && !isHeaderValue(exampleKey),
      "exampleKey must be a non-empty valid HTTP header value (Latin-1, no line breaks, controls or outer spaces); leave it out for sandbox-key",
    ],
    [
      seed !== undefined && (typeof seed !== "object" || seed === null || Array.isArray(seed)),
      "seed must be a seed object ({ customers: [...], ... }); leave it out for the spec's examples",
    ],
    [
      onDelivery !== undefined && typeof onDelivery !== "function",
      "onDelivery must be a function; leave it out to POST deliveries with fetch",
    ],
    [
      deliveryChaos !== undefined && !Number.isInteger(deliveryChaos?.seed),
      "deliveryChaos must be { seed: n }, n a whole number",
    ],
  ];
  const broken = rules.find(([isBroken]) => isBroken);
  if (broken !== undefined) throw new TypeError(`sandboxHandlers: ${broken[1]}`);
}

const HEADER_VALUE = /^[\x21-\x7E\x80-\xFF](?:[\x20-\x7E\x80-\xFF]*[\x21-\x7E\x80-\xFF])?$/;
