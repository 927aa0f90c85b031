// Webhook deliveries: one real POST of a JSON event to the webhook's url, with a short timeout,
// no redirects followed and at most a small part of the answer read, so that a slow or hostile
// receiver cannot hold the sandbox. What a sender is and what its outcomes are; Node's sender is
// http-deliveries.ts, the one with no node:http fetch-deliveries.ts.
export interface DeliveryLimits {
  /** Milliseconds before a delivery counts as failed. */
  timeoutMs: number;
  /** Bytes of the receiver's answer read at most. */
  maxResponseBytes: number;
}

export const DEFAULT_DELIVERY_LIMITS: DeliveryLimits = { timeoutMs: 2000, maxResponseBytes: 4096 };

export type DeliveryOutcome =
  | { delivered: true; status_code: number }
  | {
      delivered: false;
      status_code?: number;
      failure_reason: string;
      /** false when nothing was sent at all (a reserved example host): nothing to retry. */
      sent?: false;
    };

/** What sends a webhook's deliveries: Node's sender over HTTP, or one over fetch or a callback. */
export interface WebhookSender {
  deliver(url: string, payload: unknown): Promise<DeliveryOutcome>;
  /** A delivery to `url` was queued: a sender that loads its client lazily starts loading it. */
  queued?(url: string): void;
  close(): void;
}

export function outcomeOf(url: string, status: number): DeliveryOutcome {
  if (status >= 200 && status < 300) return { delivered: true, status_code: status };
  const redirect = status >= 300 && status < 400;
  return {
    delivered: false,
    status_code: status,
    failure_reason: redirect
      ? `HTTP ${status} from ${url}: redirects are not followed`
      : `HTTP ${status} from ${url}`,
  };
}

/**
 * Where a delivery to `url` goes, or the outcome of one that is never sent: a url that is not
 * http(s), or a host reserved for examples (RFC 2606), such as the seed webhook's
 * hooks.example.com, where no receiver of the partner's is, so no time is spent on a lookup.
 */
export function deliveryTarget(url: string): URL | DeliveryOutcome {
  const target = URL.parse(url);
  if (target === null || (target.protocol !== "http:" && target.protocol !== "https:")) {
    return { delivered: false, failure_reason: `the url ${url} is not http(s)` };
  }
  const host = target.hostname.toLowerCase().replace(/\.$/, "");
  if (/(^|\.)(example\.(com|net|org)|example|invalid)$/.test(host)) {
    return {
      delivered: false,
      sent: false,
      failure_reason: `${url} is at a reserved example domain (RFC 2606/6761): the sandbox sends nothing there and does not retry; give the webhook your receiver's url to get its events`,
    };
  }
  return target;
}
