// A webhook receiver on 127.0.0.1 for the tests, and the step that points the sandbox's seeded
// webhook at it: the seed's URL is a host on the internet, which no test may send to.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

interface Delivery {
  id: string;
  topic: string;
  customer_id: string | null;
  data: unknown;
}

/** Answers every delivery 204 and keeps its JSON body; `stop()` closes it. */
export async function startWebhookReceiver() {
  const deliveries: Delivery[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      deliveries.push(JSON.parse(body) as Delivery);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    deliveries,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Points every webhook of the sandbox's example partner (the key `sandbox-key`, whose data is the
 * whole seed, and which the samples send) at `url` (through the API, as a reader would).
 */
export async function pointWebhooksAt(sandboxUrl: string, url: string) {
  const headers = { "X-API-Key": "sandbox-key", "Content-Type": "application/json; charset=utf-8" };
  const page = (await fetch(`${sandboxUrl}/webhooks`, { headers }).then((answer) =>
    answer.json(),
  )) as { items: { id: string }[] };
  for (const { id } of page.items) {
    const answer = await fetch(`${sandboxUrl}/webhooks/${id}`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({ url }),
    });
    if (!answer.ok) throw new Error(`PATCH /webhooks/${id} answered ${answer.status}`);
  }
  return page.items.map((item) => item.id);
}
