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

export function checkNonEmptyString(name: string, value: unknown): void {
  if (typeof value !== "string" || value.trim() === "") {
    throw new TypeError(`${name} must be a non-empty string`);
  }
}

export function checkTimeoutMs(name: string, value: unknown): void {
  if (typeof value !== "number" || !(value > 0 && value <= MAX_TIMEOUT_MS)) {
    throw new RangeError(
      `${name} must be a number of milliseconds above 0 and at most ${MAX_TIMEOUT_MS}`,
    );
  }
}

export function checkMaxRetries(name: string, value: unknown): void {
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    throw new RangeError(`${name} must be a whole number of at least 0`);
  }
}

export function checkOptions(options: PaymentsClientOptions): void {
  if (typeof options !== "object" || options === null) {
    throw new TypeError("createPaymentsClient needs an options object with apiKey and baseUrl");
  }
  // Never echo the key's value: the message names the option and the rule only.
  checkNonEmptyString("apiKey", options.apiKey);
  checkNonEmptyString("baseUrl", options.baseUrl);
  if (options.subPartnerId !== undefined) checkNonEmptyString("subPartnerId", options.subPartnerId);
  if (options.timeoutMs !== undefined) checkTimeoutMs("timeoutMs", options.timeoutMs);
  if (options.maxRetries !== undefined) checkMaxRetries("maxRetries", options.maxRetries);
  if (options.fetch !== undefined && typeof options.fetch !== "function") {
    throw new TypeError("fetch must be a function");
  }
  if (options.fetch === undefined && typeof globalThis.fetch !== "function") {
    throw new TypeError("fetch must be given: this runtime has no global fetch");
  }
}
