// A real create, as a partner's app sends it: the request @org/payments-client makes for
// `customers.create` with the spec's person, recorded once by a server of the bench. Its headers
// (names as spelled, in their order) and body are sent again as recorded; the connection's own
// headers (host, connection, content-length) are left to the load generator.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createPaymentsClient } from "@org/payments-client";
import { API_KEY, createPersonCustomerRequest } from "./fixtures.ts";
import type { BenchRequest } from "./requests.ts";

const CONNECTION_HEADERS = new Set(["host", "connection", "content-length"]);

export async function recordClientCreate(): Promise<BenchRequest> {
  let recorded: BenchRequest | undefined;
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const headers: Record<string, string> = {};
      for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
        const name = incoming.rawHeaders[i] ?? "";
        if (!CONNECTION_HEADERS.has(name.toLowerCase())) {
          headers[name] = incoming.rawHeaders[i + 1] ?? "";
        }
      }
      recorded = {
        method: "POST",
        path: incoming.url ?? "",
        headers,
        body: Buffer.concat(chunks).toString("utf8"),
        asRecorded: true,
      };
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  try {
    const { port } = server.address() as AddressInfo;
    const payments = createPaymentsClient({ apiKey: API_KEY, baseUrl: `http://127.0.0.1:${port}` });
    await payments.customers.create(
      createPersonCustomerRequest as Parameters<typeof payments.customers.create>[0],
    );
  } finally {
    server.close();
    server.closeAllConnections();
  }
  const sent = recorded as BenchRequest | undefined;
  if (sent?.path !== "/customers") {
    throw new Error("the client's create was not recorded as POST /customers");
  }
  return sent;
}
