/**
 * The server over Streamable HTTP, at `/mcp`: one MCP session per client, each with its own
 * server and the SDK's transport, on one shared context (the client, the sandbox's answer, the
 * idempotency keys). It listens on 127.0.0.1 by default and answers only requests addressed to
 * the host it listens on (the SDK's DNS-rebinding protection) there. A session left without a
 * request open (its client gone without a DELETE, as most clients go) is closed after a while.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { DEFAULT_HTTP_PORT, SESSION_IDLE_MS } from "./limits.js";
import { contextOf, type PaymentsMcpOptions } from "./options.js";
import { redactTransport } from "./redact-transport.js";
import { createMcpServer } from "./server.js";

export interface HttpServerOptions extends PaymentsMcpOptions {
  /** Port to listen on; 0 picks a free one. Default 4030. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** How long a session may go without a request open before it is closed. Default 1 hour. */
  sessionIdleMs?: number;
}

export interface RunningHttpServer {
  /** The MCP endpoint, such as `http://127.0.0.1:4030/mcp`. */
  url: string;
  /** Closes every session and stops listening. */
  close(): Promise<void>;
}

const ENDPOINT = "/mcp";
const SESSION_HEADER = "mcp-session-id";

type Session = {
  transport: StreamableHTTPServerTransport;
  close: () => Promise<void>;
  /** Its requests whose answer is still open (a client's GET stream stays open while it is there). */
  open: number;
  idle?: NodeJS.Timeout;
};

const refusal = (message: string) =>
  JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });

function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(refusal(message));
}

/** A header's value as an error quotes it: JSON-escaped, and cut short if long. */
const quoteHeader = (value: string) =>
  JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);

/**
 * Why a Host header names no host and port as a URL does (`127.0.0.1:4030`, `[::1]:4030`), or
 * nothing if it does. Such a header reached the SDK's transport, which answered a bare 400.
 */
function hostProblem(host: string | undefined, url: string): string | undefined {
  const fix = `send the host and port of the server's URL (${url}), as HTTP clients do`;
  if (!host) return `The request has no Host header: ${fix}`;
  const name = /^(\[[^\]]*\]|[^:[\]]*)(?::\d{1,5})?$/.exec(host)?.[1];
  if (name === undefined || URL.parse(`http://${host}`)?.hostname !== name.toLowerCase()) {
    return `The Host header ${quoteHeader(host)} is not a host and port: ${fix}`;
  }
  return undefined;
}

/**
 * What Node's HTTP parser refuses before a request exists (malformed HTTP, headers too large)
 * gets a JSON body too, where Node would answer a bare status; then the connection closes.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [
          431,
          "Request Header Fields Too Large",
          "The request's headers are too large: send them under 16 KiB",
        ]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "The request was not complete in time: send it whole"]
        : [
            400,
            "Bad Request",
            "The request is not valid HTTP/1.1: send an MCP request as HTTP/1.1",
          ];
  const body = refusal(message);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

export async function serveHttp(options: HttpServerOptions): Promise<RunningHttpServer> {
  const context = contextOf(options);
  void context.probe.state();
  const host = options.host ?? "127.0.0.1";
  const loopback = ["127.0.0.1", "localhost", "::1"].includes(host);
  const sessions = new Map<string, Session>();
  let allowedHosts: string[] = [];
  let endpointUrl = "";
  const idleMs = options.sessionIdleMs ?? SESSION_IDLE_MS;
  if (!(idleMs > 0)) throw new TypeError("sessionIdleMs must be a number of milliseconds above 0");

  /** Counts the request as the session's while its answer is open; the last one starts the wait. */
  const track = (id: string, session: Session, response: ServerResponse) => {
    session.open++;
    clearTimeout(session.idle);
    response.once("close", () => {
      if (--session.open > 0 || !sessions.has(id)) return;
      session.idle = setTimeout(() => {
        context.log(`closed a session with no request for ${Math.round(idleMs / 1000)} s`);
        void session.close();
      }, idleMs).unref();
    });
  };

  const openSession = async (request: IncomingMessage, response: ServerResponse) => {
    const server = createMcpServer(context);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // On a loopback interface only this machine's clients, through its own names, may call.
      enableDnsRebindingProtection: loopback,
      allowedHosts,
      onsessioninitialized: (id) => {
        const session: Session = { transport, close: () => server.close(), open: 0 };
        sessions.set(id, session);
        track(id, session, response);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId === undefined) return;
      clearTimeout(sessions.get(transport.sessionId)?.idle);
      sessions.delete(transport.sessionId);
    };
    await server.connect(redactTransport(transport, context.apiKey));
    await transport.handleRequest(request, response);
    // Anything but an initialize request opens no session: the transport refused it.
    if (transport.sessionId === undefined) await server.close();
  };

  // No Host header is answered by the listener below, with a body, rather than by Node, without.
  const listener = createServer({ requireHostHeader: false }, (request, response) => {
    // A Host header the transport cannot take, or (on loopback) of another host, is refused here:
    // the transport would answer the first with a bare 400.
    const host = request.headers.host;
    const problem = hostProblem(host, endpointUrl);
    if (problem !== undefined) {
      refuse(response, 400, problem);
      return;
    }
    if (loopback && !allowedHosts.includes(host as string)) {
      refuse(
        response,
        403,
        `The Host header ${quoteHeader(host as string)} is not this server's: on a loopback interface it answers only requests addressed to ${allowedHosts.join(", ")} (a guard against DNS rebinding)`,
      );
      return;
    }
    // A request target that is no URL (`http://[::1/mcp`) is answered, not thrown at the listener;
    // nor is one the transport takes for no URL (`mcp`, `HTTP://…`).
    const target = request.url ?? "";
    const path = /^(\/|https?:\/\/)/.test(target)
      ? URL.parse(target, "http://localhost")?.pathname
      : undefined;
    if (path !== ENDPOINT) {
      refuse(response, 404, `Not found: the MCP endpoint is ${ENDPOINT}`);
      return;
    }
    const id = request.headers[SESSION_HEADER];
    const session = typeof id === "string" ? sessions.get(id) : undefined;
    if (session) track(id as string, session, response);
    const work =
      typeof id === "string"
        ? (session?.transport.handleRequest(request, response) ??
          Promise.resolve(refuse(response, 404, "No such session: initialize a new one")))
        : request.method === "POST"
          ? openSession(request, response)
          : Promise.resolve(refuse(response, 400, `Missing the ${SESSION_HEADER} header`));
    work.catch((error: unknown) => {
      context.log(`HTTP request failed: ${(error as Error).message}`);
      if (!response.headersSent) refuse(response, 500, "Internal error");
      else response.end();
    });
  });

  listener.on("clientError", answerClientError);

  const wanted = options.port ?? DEFAULT_HTTP_PORT;
  await new Promise<void>((resolve, reject) => {
    listener.once("error", (error) => reject(listenError(error, host, wanted)));
    listener.listen(wanted, host, () => resolve());
  });
  const { port } = listener.address() as AddressInfo;
  // A Host header names an IPv6 address in brackets, as a URL does.
  const hostInUrl = host.includes(":") ? `[${host}]` : host;
  allowedHosts = [...new Set([`${hostInUrl}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`])];
  endpointUrl = `http://${hostInUrl}:${port}${ENDPOINT}`;

  return {
    url: endpointUrl,
    async close() {
      await Promise.all([...sessions.values()].map((session) => session.close()));
      sessions.clear();
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}

/** Why the server cannot listen, in the words of the option that fixes it. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  switch (error.code) {
    case "EADDRINUSE":
      return new Error(
        `port ${port} on ${host} is in use: choose another with --port (0 picks a free one)`,
      );
    case "EACCES":
      return new Error(
        `no permission to listen on ${host}:${port}: choose a port from 1024 with --port`,
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EADDRNOTAVAIL":
      return new Error(
        `--host ${host} is not an address of this machine: choose one it has, such as 127.0.0.1`,
      );
    default:
      return error;
  }
}
