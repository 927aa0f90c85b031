// A receiver inside a test that keeps each request as it came: its path, headers and body text,
// so that a test can compare what listen forwards with what a webhook delivery sends.
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** `answered`: each answer waits for it (a receiver still working on a request). */
export async function startRawReceiver(status = 204, answered: Promise<void> = Promise.resolve()) {
  const received: Received[] = [];
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    received.push({ path: request.url ?? "", headers: request.headers, body });
    await answered;
    response.writeHead(status).end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
