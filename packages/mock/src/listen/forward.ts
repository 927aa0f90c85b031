// An event posted to a local receiver exactly as the sandbox's webhook delivery posts it: the
// same JSON body, byte for byte, and the same headers (content-type, content-length and the
// sandbox's user-agent; deliveries are not signed), on kept-alive connections. As the sandbox's
// deliveries, a forward is bounded: a whole answer within its time, and at most a little of it
// read, so that a receiver that answers slowly or endlessly holds neither listen nor its stop.
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

/** What the receiver answered. */
export type Forwarded =
  | { status: number; durationMs: number }
  | { status: null; durationMs: number; error: string };

/** A receiver that has not answered whole in this long counts as failed, as a slow webhook does. */
const TIMEOUT_MS = 10_000;

/** Bytes of a receiver's answer read at most: the rest is let go with its connection. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface ForwardLimits {
  /** Milliseconds a forward's whole answer may take (default 10 s). */
  timeoutMs?: number;
}

export class Forwarder {
  private readonly agents = {
    "http:": new HttpAgent({ keepAlive: true }),
    "https:": new HttpsAgent({ keepAlive: true }),
  };

  private readonly timeoutMs: number;

  constructor(limits: ForwardLimits = {}) {
    this.timeoutMs = limits.timeoutMs ?? TIMEOUT_MS;
  }

  /** Posts `body` to `url`; resolves to the receiver's status, or why there is none. */
  forward(url: URL, body: string): Promise<Forwarded> {
    const started = performance.now();
    const took = () => Math.round((performance.now() - started) * 10) / 10;
    const bytes = Buffer.from(body);
    const secure = url.protocol === "https:";
    const timeoutMs = this.timeoutMs;
    return new Promise((resolve) => {
      let settled = false;
      const settle = (forwarded: Forwarded) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(forwarded);
      };
      const send = secure ? httpsRequest : httpRequest;
      const request = send(
        url,
        {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "content-length": bytes.length,
            "user-agent": "payments-mock-sandbox",
          },
          agent: this.agents[secure ? "https:" : "http:"],
        },
        (response) => {
          const status = response.statusCode ?? 0;
          let read = 0;
          response.on("data", (chunk: Buffer) => {
            read += chunk.length;
            // Enough of it: the rest is let go with the connection.
            if (read >= MAX_ANSWER_BYTES) {
              settle({ status, durationMs: took() });
              request.destroy();
            }
          });
          response.on("end", () => settle({ status, durationMs: took() }));
          response.on("error", () =>
            settle({
              status: null,
              durationMs: took(),
              error: "the receiver broke off its answer",
            }),
          );
        },
      );
      // The whole answer, not each wait between its bytes: one sent a byte at a time ends too.
      const timer = setTimeout(() => {
        settle({
          status: null,
          durationMs: took(),
          error: `no whole answer within ${timeoutMs} ms`,
        });
        request.destroy();
      }, timeoutMs);
      request.on("error", (error: NodeJS.ErrnoException) =>
        settle({ status: null, durationMs: took(), error: error.code ?? error.message }),
      );
      request.end(bytes);
    });
  }

  close(): void {
    this.agents["http:"].destroy();
    this.agents["https:"].destroy();
  }
}
