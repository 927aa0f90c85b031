// Webhook deliveries sent with undici on kept-alive connections: with test mode, every create
// sends an event, and Node's fetch cost about three times the CPU per delivery of node:http, which
// cost a third more than undici's dispatcher by itself (bench: "Stateful mocks", a create with a
// webhook on every topic). undici is loaded at the first delivery sent: it cost a quarter of a
// `payments-mock --stateful` start, and most sandboxes send none (the seed's webhook is at a
// reserved example host).
import type { Agent, Dispatcher } from "undici";
import {
  type DeliveryLimits,
  type DeliveryOutcome,
  deliveryTarget,
  outcomeOf,
  type WebhookSender,
} from "./deliveries.js";

/**
 * A sandbox's webhook sender: its limits, and the connections it keeps open between deliveries,
 * which close with the sandbox (`close`). An idle one is closed before the receiver's own
 * keep-alive timeout says it will (undici's keepAliveTimeoutThreshold).
 */
export class DeliverySender implements WebhookSender {
  /** The kept-alive connections' agent, made at the first delivery sent. */
  private agent: Promise<Agent> | undefined;

  private closed = false;

  private readonly limits: DeliveryLimits;

  /** Where each url goes, read once rather than at every delivery (a webhook keeps its url). */
  private readonly targets = new Map<string, Destination | DeliveryOutcome>();

  constructor(limits: DeliveryLimits) {
    this.limits = limits;
  }

  async deliver(url: string, payload: unknown): Promise<DeliveryOutcome> {
    const target = this.targetOf(url);
    if ("delivered" in target) return target;
    const body = JSON.stringify(payload);
    const first = await post(url, target, body, this.limits, await this.keptAlive());
    if (!("retry" in first)) return first;
    // A kept-alive connection the receiver closed as it was reused: the request never got there.
    // Tried once more on a connection of its own, which is closed after it (undici retries no
    // POST by itself).
    const { Agent } = await loadUndici();
    const fresh = new Agent({ pipelining: 0 });
    try {
      const again = await post(url, target, body, this.limits, fresh);
      return "retry" in again
        ? { delivered: false, failure_reason: `${url} could not be reached: ECONNRESET` }
        : again;
    } finally {
      void fresh.destroy();
    }
  }

  /**
   * Loads undici as soon as a delivery that will be sent is queued: the first one then does not
   * wait for it, and deliveries from processes sharing a store go out in the order they were
   * queued as often as before.
   */
  queued(url: string): void {
    if (!("delivered" in this.targetOf(url))) void this.keptAlive();
  }

  private targetOf(url: string): Destination | DeliveryOutcome {
    let target = this.targets.get(url);
    if (target === undefined) {
      if (this.targets.size >= TARGETS_KEPT) this.targets.clear();
      const found = deliveryTarget(url);
      target = found instanceof URL ? destinationOf(found) : found;
      this.targets.set(url, target);
    }
    return target;
  }

  /** The agent of the kept-alive connections; one made after `close` is closed at once. */
  private keptAlive(): Promise<Agent> {
    this.agent ??= loadUndici().then(({ Agent }) => {
      const agent = new Agent();
      if (this.closed) void agent.destroy();
      return agent;
    });
    return this.agent;
  }

  /** Closes the kept-alive connections: no socket of the sandbox's outlives it. */
  close(): void {
    this.closed = true;
    void this.agent?.then((agent) => agent.destroy());
  }
}

let undici: Promise<typeof import("undici")> | undefined;

/** undici, loaded once, when a delivery is first sent. */
function loadUndici(): Promise<typeof import("undici")> {
  undici ??= import("undici");
  return undici;
}

/** The urls whose targets are kept; past this many, they are read afresh. */
const TARGETS_KEPT = 1_000;

type Attempt = DeliveryOutcome | { retry: true };

/** A url as a delivery's request is sent to it. */
interface Destination {
  origin: string;
  path: string;
  headers: Record<string, string>;
}

/**
 * The request to `target`: a user and password in the url go as Basic authorization, as
 * node:http sends them.
 */
function destinationOf(target: URL): Destination {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "payments-mock-sandbox",
  };
  if (target.username !== "" || target.password !== "") {
    const credentials = `${decoded(target.username)}:${decoded(target.password)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString("base64")}`;
  }
  return { origin: target.origin, path: `${target.pathname}${target.search}`, headers };
}

/** A part of a url with its escapes undone, or as it is where an escape is malformed. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** The errors of a connection the receiver closed before its answer's head. */
const CLOSED_CONNECTION = new Set(["ECONNRESET", "UND_ERR_SOCKET"]);

/**
 * One POST to `url` (as `target`) through `dispatcher`, its answer read up to the limit: handed
 * to undici's dispatcher as it is, without the streams of its `request`, which would cost a
 * delivery more than the rest of its sending.
 */
function post(
  url: string,
  target: Destination,
  body: string,
  limits: DeliveryLimits,
  dispatcher: Dispatcher,
): Promise<Attempt> {
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    let controller: Dispatcher.DispatchController | undefined;
    /** The answer's status, once its head has come. */
    let status: number | undefined;
    let read = 0;
    const settle = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(attempt);
    };
    /** Lets the request go: the connection with it, so that a slow receiver holds nothing. */
    const abandon = () => {
      if (controller !== undefined && !controller.aborted) controller.abort(ENOUGH);
    };
    const timer = setTimeout(() => {
      settle({
        delivered: false,
        failure_reason: `no answer from ${url} within ${limits.timeoutMs} ms`,
      });
      abandon();
    }, limits.timeoutMs);
    dispatcher.dispatch(
      {
        origin: target.origin,
        path: target.path,
        method: "POST",
        headers: target.headers,
        body,
      },
      {
        onRequestStart(started) {
          controller = started;
          if (settled) abandon();
        },
        onResponseStart(_, statusCode) {
          status = statusCode;
        },
        onResponseData(_, chunk) {
          read += chunk.length;
          // Enough of it: the rest is let go with the connection.
          if (read >= limits.maxResponseBytes) {
            settle(outcomeOf(url, status ?? 0));
            abandon();
          }
        },
        onResponseEnd() {
          settle(outcomeOf(url, status ?? 0));
        },
        onResponseError(_, error: Error & { code?: string }) {
          if (settled) return;
          if (status !== undefined) {
            settle({ delivered: false, failure_reason: `${url} broke off its answer` });
          } else if (CLOSED_CONNECTION.has(error.code ?? "")) {
            settle({ retry: true });
          } else {
            settle({
              delivered: false,
              failure_reason: `${url} could not be reached: ${error.code ?? error.message}`,
            });
          }
        },
      },
    );
  });
}

/** The reason a request the sender let go is aborted with. */
const ENOUGH = new Error("the delivery was let go");
