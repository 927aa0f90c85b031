// Webhook deliveries with no node:http: to a callback of the test's (MSW handlers, the in-page
// sandbox), or POSTed with fetch (in a browser, subject to CORS). Same body and outcomes as Node's.
import {
  type DeliveryLimits,
  type DeliveryOutcome,
  deliveryTarget,
  outcomeOf,
  type WebhookSender,
} from "./deliveries.js";

/** A delivery as a callback gets it: the webhook's url and the event, with the headers sent. */
export interface WebhookDelivery {
  url: string;
  event: unknown;
  headers: Record<string, string>;
}

/**
 * Receives a delivery instead of its url. What it returns is the receiver's status (default 200);
 * a throw, or no answer within the delivery timeout (2 s), is a failed delivery, retried as a
 * receiver's failure is.
 */
export type DeliveryCallback = (
  delivery: WebhookDelivery,
) => number | undefined | Promise<number | undefined> | Promise<void> | void;

const HEADERS = { "content-type": "application/json", "user-agent": "payments-mock-sandbox" };

/** Deliveries to `callback` when given, else POSTed with `fetch`. */
export function fetchWebhookSender(
  limits: DeliveryLimits,
  callback: DeliveryCallback | undefined,
  fetchFunction: typeof fetch = globalThis.fetch,
): WebhookSender {
  return {
    async deliver(url, payload) {
      if (callback !== undefined) return deliverToCallback(callback, url, payload, limits);
      const target = deliveryTarget(url);
      if (!(target instanceof URL)) return target;
      return post(fetchFunction, url, JSON.stringify(payload), limits);
    },
    close() {},
  };
}

/**
 * A callback's delivery, bounded as a receiver's: one that never settles fails after the time a
 * receiver gets, rather than holding its partner's deliveries (and close()) for ever.
 */
async function deliverToCallback(
  callback: DeliveryCallback,
  url: string,
  event: unknown,
  limits: DeliveryLimits,
): Promise<DeliveryOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<DeliveryOutcome>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          delivered: false,
          failure_reason: `the delivery callback did not settle within ${limits.timeoutMs} ms`,
        }),
      limits.timeoutMs,
    );
  });
  try {
    return await Promise.race([callbackOutcome(callback, url, event), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function callbackOutcome(
  callback: DeliveryCallback,
  url: string,
  event: unknown,
): Promise<DeliveryOutcome> {
  try {
    const status = (await callback({ url, event, headers: { ...HEADERS } })) ?? 200;
    if (!Number.isInteger(status) || status < 100 || status > 599) {
      return {
        delivered: false,
        failure_reason: `the delivery callback returned ${typeof status === "number" ? status : `a ${typeof status}`}: it must return an HTTP status (a whole number from 100 to 599) or nothing`,
      };
    }
    return outcomeOf(url, status);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { delivered: false, failure_reason: `the delivery callback threw: ${reason}` };
  }
}

async function post(
  fetchFunction: typeof fetch,
  url: string,
  body: string,
  limits: DeliveryLimits,
): Promise<DeliveryOutcome> {
  try {
    const response = await fetchFunction(url, {
      method: "POST",
      headers: HEADERS,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(limits.timeoutMs),
    });
    // The answer's body is not needed: let it go.
    await response.body?.cancel();
    // A browser's fetch hides a redirect's status (0) and where it goes: it is not followed.
    if (response.type === "opaqueredirect") {
      return {
        delivered: false,
        failure_reason: `${url} answered with a redirect: redirects are not followed`,
      };
    }
    return outcomeOf(url, response.status);
  } catch (error) {
    const reason =
      (error as Error).name === "TimeoutError"
        ? `no answer from ${url} within ${limits.timeoutMs} ms`
        : `${url} could not be reached: ${(error as Error).message}`;
    return { delivered: false, failure_reason: reason };
  }
}
