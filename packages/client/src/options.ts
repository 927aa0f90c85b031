/** The client's options and the checks that turn bad ones into clear errors at construction. */

export interface PaymentsClientOptions {
  /** The partner's API key, sent as `X-API-Key` on every request. Required. */
  apiKey: string;
  /** The API's base URL, e.g. `https://sandbox.example.com/api`. Required. */
  baseUrl: string;
  /** Scope every call that accepts `X-SUB-PARTNER-ID` to this sub-partner. */
  subPartnerId?: string;
  /** Per-attempt timeout in ms. Default 30 000. */
  timeoutMs?: number;
  /** Retries after the first attempt, for network errors, timeouts, 408, 429 and 5xx. Default 2. */
  maxRetries?: number;
  /** The `fetch` to send requests with. Default `globalThis.fetch`. */
  fetch?: (input: Request) => Promise<Response>;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 2;
/** setTimeout's largest delay; larger values fire at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;

function checkNonEmptyString(name: string, value: unknown): void {
  if (typeof value !== "string" || value.trim() === "") {
    throw new TypeError(`${name} must be a non-empty string`);
  }
}

/**
 * A value sent as an HTTP header must be one: visible ASCII or Latin-1 characters, inner spaces
 * allowed. A line break would be refused by fetch (with the value in its message) or, at the
 * end, stripped silently; a character outside Latin-1, such as a pasted smart quote, cannot be
 * sent at all. The message names the option and the rule, never the value.
 */
export function checkHeaderValue(name: string, value: unknown): void {
  checkNonEmptyString(name, value);
  if (!HEADER_VALUE.test(value as string)) {
    throw new TypeError(
      `${name} must be a valid HTTP header value (Latin-1, no line breaks, controls or outer spaces)`,
    );
  }
}

const HEADER_VALUE = /^[\x21-\x7E\x80-\xFF](?:[\x20-\x7E\x80-\xFF]*[\x21-\x7E\x80-\xFF])?$/;

/**
 * An absolute http: or https: URL; anything else would fail, or go elsewhere, on the first call.
 * The path is appended to it as text, so a query or fragment would swallow every path, and fetch
 * refuses a URL with credentials (quoting them in its message).
 */
function checkBaseUrl(value: unknown): void {
  const url = URL.canParse(value as string) ? new URL(value as string) : undefined;
  if (
    !url ||
    !/^https?:$/.test(url.protocol) ||
    url.username ||
    url.password ||
    /[?#]/.test(value as string)
  ) {
    throw new TypeError(
      "baseUrl must be an absolute http: or https: URL, without credentials, query or fragment",
    );
  }
}

/** Checks an optional timeout: undefined passes. */
export function checkTimeoutMs(name: string, value: unknown): void {
  if (value !== undefined && !(typeof value === "number" && value > 0 && value <= MAX_TIMEOUT_MS)) {
    throw new RangeError(`${name} must be a number of ms above 0, at most ${MAX_TIMEOUT_MS}`);
  }
}

/** Checks an optional retry count: undefined passes. */
export function checkMaxRetries(name: string, value: unknown): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 0)) {
    throw new RangeError(`${name} must be a whole number of at least 0`);
  }
}

export function checkOptions(options: PaymentsClientOptions): void {
  if (!options || typeof options !== "object") {
    throw new TypeError("createPaymentsClient needs an options object");
  }
  // Never echo the key's value: the message names the option and the rule only.
  checkHeaderValue("apiKey", options.apiKey);
  checkBaseUrl(options.baseUrl);
  if (options.subPartnerId !== undefined) checkHeaderValue("subPartnerId", options.subPartnerId);
  checkTimeoutMs("timeoutMs", options.timeoutMs);
  checkMaxRetries("maxRetries", options.maxRetries);
  // Given, or the runtime's own: either way there must be a fetch to send with.
  if (typeof (options.fetch ?? globalThis.fetch) !== "function") {
    throw new TypeError("fetch must be a function: give one where the runtime has no global fetch");
  }
}
