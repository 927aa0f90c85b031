// An event posted to a local receiver exactly as the sandbox's webhook delivery posts it: the
// same JSON body, byte for byte, and the same headers (content-type, content-length and the
// sandbox's user-agent; deliveries are not signed), on kept-alive connections.
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

/** What the receiver answered. */
export type Forwarded =
  | { status: number; durationMs: number }
  | { status: null; durationMs: number; error: string };

/** A receiver that has not answered in this long counts as failed, as a slow webhook does. */
const TIMEOUT_MS = 10_000;

export class Forwarder {
  private readonly agents = {
    "http:": new HttpAgent({ keepAlive: true }),
    "https:": new HttpsAgent({ keepAlive: true }),
  };

  /** Posts `body` to `url`; resolves to the receiver's status, or why there is none. */
  forward(url: URL, body: string): Promise<Forwarded> {
    const started = performance.now();
    const took = () => Math.round((performance.now() - started) * 10) / 10;
    const bytes = Buffer.from(body);
    const secure = url.protocol === "https:";
    return new Promise((resolve) => {
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
          timeout: TIMEOUT_MS,
        },
        (response) => {
          response.resume();
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, durationMs: took() }),
          );
          response.on("error", (error) =>
            resolve({ status: null, durationMs: took(), error: error.message }),
          );
        },
      );
      request.on("timeout", () => request.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
      request.on("error", (error: NodeJS.ErrnoException) =>
        resolve({ status: null, durationMs: took(), error: error.code ?? error.message }),
      );
      request.end(bytes);
    });
  }

  close(): void {
    this.agents["http:"].destroy();
    this.agents["https:"].destroy();
  }
}
