// Webhook deliveries sent with node:http(s) on kept-alive connections: with test mode, every
// create sends an event, and fetch cost about three times the CPU per delivery.
import {
  type Agent,
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import {
  type DeliveryLimits,
  type DeliveryOutcome,
  deliveryTarget,
  outcomeOf,
  type WebhookSender,
} from "./deliveries.js";

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

  /** Where each url goes, read once rather than at every delivery (a webhook keeps its url). */
  private readonly targets = new Map<string, URL | DeliveryOutcome>();

  constructor(limits: DeliveryLimits) {
    this.limits = limits;
  }

  async deliver(url: string, payload: unknown): Promise<DeliveryOutcome> {
    const target = this.targetOf(url);
    if (!(target instanceof URL)) return target;
    // A string, not a Buffer: node:http then writes the head and the body in one piece.
    const body = JSON.stringify(payload);
    const first = await post(
      url,
      target,
      body,
      this.limits,
      this.agents[target.protocol === "https:" ? "https:" : "http:"],
    );
    if (!("retry" in first)) return first;
    // A kept-alive connection the receiver closed as it was reused: the request never got there.
    const again = await post(url, target, body, this.limits, undefined);
    return "retry" in again
      ? { delivered: false, failure_reason: `${url} could not be reached: ECONNRESET` }
      : again;
  }

  private targetOf(url: string): URL | DeliveryOutcome {
    let target = this.targets.get(url);
    if (target === undefined) {
      if (this.targets.size >= TARGETS_KEPT) this.targets.clear();
      target = deliveryTarget(url);
      this.targets.set(url, target);
    }
    return target;
  }

  /** Closes the kept-alive connections: no socket of the sandbox's outlives it. */
  close(): void {
    this.agents["http:"].destroy();
    this.agents["https:"].destroy();
  }
}

/** The urls whose targets are kept; past this many, they are read afresh. */
const TARGETS_KEPT = 1_000;

type Attempt = DeliveryOutcome | { retry: true };

/** One POST to `url` (as `target`); `agent` undefined for a connection of its own. */
function post(
  url: string,
  target: URL,
  body: string,
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
          "content-length": Buffer.byteLength(body),
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
