// A webhook receiver inside the test: records every delivery as it came (its path, headers and
// body, as text and parsed) and answers as the test says, at once or when the test lets it.
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Delivery {
  path: string;
  headers: IncomingMessage["headers"];
  /** The body as it came, to compare byte for byte. */
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read deliveries as loose JSON
  body: any;
}

/** Answers a delivery; one that returns a promise keeps the sender waiting until it settles. */
export type Reply = (request: IncomingMessage, response: ServerResponse) => unknown;

export async function startReceiver(reply: Reply = (_, response) => response.writeHead(204).end()) {
  const deliveries: Delivery[] = [];
  const waiters: Array<() => void> = [];
  let current = reply;
  const server = createServer(async (request, response) => {
    let text = "";
    for await (const chunk of request) text += chunk;
    const body = JSON.parse(text);
    deliveries.push({ path: request.url ?? "", headers: request.headers, text, body });
    for (const wake of waiters.splice(0)) wake();
    await current(request, response);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    deliveries,
    answerWith(next: Reply) {
      current = next;
    },
    /**
     * Resolves once at least `count` deliveries have arrived; fails after `timeoutMs` naming the
     * topics of those that did.
     */
    async waitFor(count: number, timeoutMs = 30_000): Promise<Delivery[]> {
      const deadline = AbortSignal.timeout(timeoutMs);
      while (deliveries.length < count) {
        if (deadline.aborted) {
          const topics = deliveries.map((delivery) => delivery.body?.topic);
          throw new Error(
            `${deliveries.length} of ${count} deliveries arrived within ${timeoutMs} ms: ${JSON.stringify(topics)}`,
          );
        }
        await new Promise<void>((wake) => {
          waiters.push(wake);
          deadline.addEventListener("abort", () => wake(), { once: true });
        });
      }
      return deliveries;
    },
    stop(): Promise<void> {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
