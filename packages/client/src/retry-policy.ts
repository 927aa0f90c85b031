/** When and how long to wait before retrying an attempt. */
import { Attempt } from "./attempt.js";

const BASE_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;
/** A server asking for a longer pause than this gets its response back instead of a retry. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** 408, 429 and 5xx may succeed when tried again; every other 4xx will not. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Exponential backoff with full jitter: uniformly random in [0, min(cap, base·2^attempt)). */
export function backoffDelay(attempt: number, random: () => number): number {
  return random() * Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** attempt);
}

/**
 * The delay a `Retry-After` header asks for, in ms: delay-seconds or an HTTP date. `undefined`
 * when the header is absent or unreadable.
 */
export function retryAfterDelay(header: string | null, now: number): number | undefined {
  const value = header?.trim() ?? "";
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date opens with its day's name: Date.parse would read `1.5` or `-1` as a date long
  // past, and so retry at once.
  const date = Date.parse(value);
  return /^[A-Z][a-z]{2}/.test(value) && date >= 0 ? Math.max(0, date - now) : undefined;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export async function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  const wait = new Attempt(signal, ms);
  try {
    await wait.settle(new Promise<never>(() => {}));
  } catch (reason) {
    if (!wait.timedOut) throw reason;
  } finally {
    wait.dispose();
  }
}
