// Webhook deliveries: one real POST of a JSON event to the webhook's url, with a short timeout,
// no redirects followed and at most a small part of the answer read, so that a slow or hostile
// receiver cannot hold the sandbox. Sent with node:http(s) on kept-alive connections: with test
// mode, every create sends an event, and fetch cost about three times the CPU per delivery.
import {
  type Agent,
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

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
  close(): void;
}

/**
 * A sandbox's webhook sender: its limits, and the connections it keeps open between deliveries,
 * which close with the sandbox (`close`). An agent closes an idle one a second before the
 * receiver's own keep-alive timeout says it will (Node's agentKeepAliveTimeoutBuffer).
 */
export class DeliverySender implements WebhookSender {
  private readonly agents = {
    "http:": new HttpAgent({ keepAlive: true }),
    "https:": new HttpsAgent({ keepAlive: true }),
  };

  private readonly limits: DeliveryLimits;

  constructor(limits: DeliveryLimits) {
    this.limits = limits;
  }

  async deliver(url: string, payload: unknown): Promise<DeliveryOutcome> {
    const target = URL.parse(url);
    if (target === null || (target.protocol !== "http:" && target.protocol !== "https:")) {
      return { delivered: false, failure_reason: `the url ${url} is not http(s)` };
    }
    if (isReservedExampleHost(target)) {
      return {
        delivered: false,
        sent: false,
        failure_reason: `${url} is at a reserved example domain (RFC 2606/6761): the sandbox sends nothing there and does not retry; give the webhook your receiver's url to get its events`,
      };
    }
    const body = Buffer.from(JSON.stringify(payload));
    const first = await post(url, target, body, this.limits, this.agents[target.protocol]);
    if (!("retry" in first)) return first;
    // A kept-alive connection the receiver closed as it was reused: the request never got there.
    const again = await post(url, target, body, this.limits, undefined);
    return "retry" in again
      ? { delivered: false, failure_reason: `${url} could not be reached: ECONNRESET` }
      : again;
  }

  /** Closes the kept-alive connections: no socket of the sandbox's outlives it. */
  close(): void {
    this.agents["http:"].destroy();
    this.agents["https:"].destroy();
  }
}

type Attempt = DeliveryOutcome | { retry: true };

/** One POST to `url` (as `target`); `agent` undefined for a connection of its own. */
function post(
  url: string,
  target: URL,
  body: Buffer,
  limits: DeliveryLimits,
  agent: Agent | undefined,
) {
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    const settle = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(attempt);
    };
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const request: ClientRequest = send(
      target,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": body.length,
          "user-agent": "payments-mock-sandbox",
        },
        agent: agent ?? false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        const answered = () => settle(outcomeOf(url, status));
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          // Enough of it: the rest is let go with the connection.
          if (read >= limits.maxResponseBytes) {
            answered();
            response.destroy();
          }
        });
        response.on("end", answered);
        response.on("error", () =>
          settle({ delivered: false, failure_reason: `${url} broke off its answer` }),
        );
      },
    );
    const timer = setTimeout(() => {
      settle({
        delivered: false,
        failure_reason: `no answer from ${url} within ${limits.timeoutMs} ms`,
      });
      request.destroy();
    }, limits.timeoutMs);
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (request.reusedSocket && error.code === "ECONNRESET") settle({ retry: true });
      else
        settle({
          delivered: false,
          failure_reason: `${url} could not be reached: ${error.code ?? error.message}`,
        });
    });
    request.end(body);
  });
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
 * Whether the url's host is a name reserved for examples (RFC 2606), such as the seed webhook's
 * hooks.example.com: no receiver of the partner's is there, so no time is spent on a lookup.
 */
export function isReservedExampleHost(target: URL): boolean {
  const host = target.hostname.toLowerCase().replace(/\.$/, "");
  return /(^|\.)(example\.(com|net|org)|example|invalid)$/.test(host);
}
