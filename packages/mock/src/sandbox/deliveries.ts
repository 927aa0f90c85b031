// Webhook deliveries: one real POST of a JSON event to the webhook's url, with a short timeout,
// no redirects followed and at most a small part of the answer read, so that a slow or hostile
// receiver cannot hold the sandbox.

export interface DeliveryLimits {
  /** Milliseconds before a delivery counts as failed. */
  timeoutMs: number;
  /** Bytes of the receiver's answer read at most. */
  maxResponseBytes: number;
}

export const DEFAULT_DELIVERY_LIMITS: DeliveryLimits = { timeoutMs: 2000, maxResponseBytes: 4096 };

export type DeliveryOutcome =
  | { delivered: true; status_code: number }
  | { delivered: false; status_code?: number; failure_reason: string };

export async function deliver(
  url: string,
  payload: unknown,
  limits: DeliveryLimits,
): Promise<DeliveryOutcome> {
  if (!/^https?:\/\//i.test(url)) {
    return { delivered: false, failure_reason: `the url ${url} is not http(s)` };
  }
  if (isReservedExampleHost(url)) {
    return {
      delivered: false,
      failure_reason: `${url} is a reserved example domain (RFC 2606): the sandbox sends nothing there`,
    };
  }
  // A timer (not AbortSignal.timeout) holds the controller strongly until the call settles.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limits.timeoutMs);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "payments-mock-sandbox" },
      body: JSON.stringify(payload),
      redirect: "manual",
      signal: controller.signal,
    });
    await readAtMost(response, limits.maxResponseBytes);
    if (response.status >= 200 && response.status < 300) {
      return { delivered: true, status_code: response.status };
    }
    const redirect = response.status >= 300 && response.status < 400;
    return {
      delivered: false,
      status_code: response.status,
      failure_reason: redirect
        ? `HTTP ${response.status} from ${url}: redirects are not followed`
        : `HTTP ${response.status} from ${url}`,
    };
  } catch (error) {
    const reason = controller.signal.aborted
      ? `no answer from ${url} within ${limits.timeoutMs} ms`
      : `${url} could not be reached: ${causeOf(error)}`;
    return { delivered: false, failure_reason: reason };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the url's host is a name reserved for examples (RFC 2606), such as the seed webhook's
 * hooks.example.com: no receiver of the partner's is there, so no time is spent on a lookup.
 */
function isReservedExampleHost(url: string): boolean {
  const host = URL.parse(url)?.hostname.toLowerCase().replace(/\.$/, "") ?? "";
  return /(^|\.)(example\.(com|net|org)|example|invalid)$/.test(host);
}

/** Reads up to `max` bytes of the body, then lets the rest go. */
async function readAtMost(response: Response, max: number): Promise<void> {
  const reader = response.body?.getReader();
  if (reader === undefined) return;
  let read = 0;
  while (read < max) {
    const chunk = await reader.read();
    if (chunk.done) return;
    read += chunk.value.byteLength;
  }
  await reader.cancel();
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
