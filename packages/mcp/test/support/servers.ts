// The sandbox a test runs the server against: @org/payments-mock's, served for the test by the
// workspace's helper (startTestSandbox), and a server that is not a sandbox, which records every
// request it gets.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { startMock } from "@org/payments-mock";
import { startTestSandbox } from "@org/payments-testing";

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

const listen = async (server: ReturnType<typeof createServer>): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const close = (server: ReturnType<typeof createServer>) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** An API whose /customers requests `answer` takes (or leaves unanswered), and 404 to the rest. */
export async function startCustomersApi(
  answer: (outgoing: ServerResponse) => void,
): Promise<RunningServer> {
  const server = createServer((incoming, outgoing) => {
    if (incoming.url?.startsWith("/customers")) answer(outgoing);
    else outgoing.writeHead(404, { "content-type": "application/json" }).end("{}");
  });
  return { url: await listen(server), stop: () => close(server) };
}

/** A stateful sandbox: it serves its test-mode document at GET /_sandbox/openapi.json. */
export function startSandbox(): Promise<RunningServer> {
  return startTestSandbox((state) => startMock({ stateful: true, state }));
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** Another API's OpenAPI document, as an impostor serves it where the sandbox serves its own. */
const OTHER_DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "Something else", version: "1" },
  paths: {},
};

/**
 * A server that is not a sandbox, which records what it gets: it answers 404 to everything
 * (`plain`), a web page to everything (`html`), nothing to the sandbox probe (`silent`), a closed
 * connection to the sandbox probe (`hang-up`), another OpenAPI document at the sandbox's document
 * path (`impostor`), JSON to everything (`json`), or 401 quoting the request's API key (`echo`).
 * Each takes a customer's creation.
 */
export async function startPlainServer(
  kind: "plain" | "html" | "silent" | "hang-up" | "impostor" | "json" | "echo" = "plain",
): Promise<RunningServer & { requests: RecordedRequest[] }> {
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    if ((kind === "silent" || kind === "hang-up") && incoming.url === "/_sandbox/openapi.json") {
      requests.push({ method: "GET", path: incoming.url, headers: incoming.headers, body: "" });
      if (kind === "hang-up") incoming.socket.destroy();
      return;
    }
    if (kind === "html") {
      requests.push({
        method: incoming.method ?? "",
        path: incoming.url ?? "",
        headers: incoming.headers,
        body: "",
      });
      outgoing.writeHead(200, { "content-type": "text/html" });
      outgoing.end("<html><body>Welcome</body></html>");
      return;
    }
    let body = "";
    incoming.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    incoming.on("end", () => {
      requests.push({
        method: incoming.method ?? "",
        path: incoming.url ?? "",
        headers: incoming.headers,
        body,
      });
      const created = incoming.method === "POST" && incoming.url === "/customers";
      const probed = incoming.url === "/_sandbox/openapi.json";
      const [status, answer] = created
        ? [200, createdCustomer()]
        : kind === "impostor" && probed
          ? [200, OTHER_DOCUMENT]
          : kind === "json"
            ? [200, { ok: true }]
            : kind === "echo"
              ? [401, { title: "Unauthorized", detail: `no key ${incoming.headers["x-api-key"]}` }]
              : [404, { title: "Not found" }];
      outgoing.writeHead(status, { "content-type": "application/json" });
      outgoing.end(JSON.stringify(answer));
    });
  });
  const url = await listen(server);
  return { url, requests, stop: () => close(server) };
}

/** What the plain server answers to a customer's creation (when writes are allowed to it). */
function createdCustomer() {
  const now = "2026-01-01T00:00:00Z";
  return {
    id: "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f",
    created_at: now,
    updated_at: now,
    customer_type: "Person",
    email: "ada@example.com",
    name: "ada@example.com",
    partner_id: "0b7e3c52-6a1d-4f8e-9b2c-3d4e5f6a7b8c",
    identification_ids: [],
    signing_ids: [],
    status: "SigningsRequired",
  };
}
