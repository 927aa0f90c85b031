// The HTTP server under the mock and the proxy: connection limits, problem bodies for what Node's
// parser refuses, a clear error for a busy port, and a stop that closes every connection.
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { PROBLEM_CONTENT_TYPE, problem } from "./problem.js";
import { HEAD_TOO_LARGE } from "./read-request.js";

// node:http as Node's own module, not imported: an import reads every export of it, and its
// WebSocket getters load Node's fetch (undici), a tenth of the CPU of a mock's start.
const { createServer } = process.getBuiltinModule("node:http");

/**
 * One line per request for the log: method, path, status and request id. Headers (and so the API
 * key) are never logged.
 */
export type RequestLogger = (line: string) => void;

export interface ConnectionLimits {
  /** A request whose headers are not complete by then gets a 408 and its connection closes. */
  headersMs: number;
  /** Likewise for a request (headers and body) that is not complete by then. */
  requestMs: number;
  /** An idle keep-alive connection closes after this long. */
  keepAliveMs: number;
}

const DEFAULT_LIMITS: ConnectionLimits = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
};

export interface ServeOptions {
  port: number;
  host: string;
  cors: boolean;
  limits?: Partial<ConnectionLimits> | undefined;
}

export interface Served {
  url: string;
  port: number;
  /** Stops listening and closes every open connection. */
  close(): Promise<void>;
}

/** Listens with `handler` and resolves once the server answers. */
export async function serve(handler: RequestListener, options: ServeOptions): Promise<Served> {
  const { port, host, cors } = options;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const server = createServer(
    {
      headersTimeout: limits.headersMs,
      requestTimeout: limits.requestMs,
      keepAliveTimeout: limits.keepAliveMs,
      // How often Node checks the two timeouts above; its default (30 s) would blur them.
      connectionsCheckingInterval: Math.min(1_000, limits.headersMs),
      // Node answers an HTTP/1.1 request without Host with a bare 400; this one has a problem body.
      requireHostHeader: false,
    },
    (request, response) => {
      if (request.headers.host === undefined && request.httpVersion === "1.1") {
        refuseBeforeHandler(request, response, cors, 400, "Bad Request", HOST_MISSING);
        return;
      }
      // Node keeps the first of several Host headers; RFC 9112 has a server refuse the request.
      if (hostCount(request.rawHeaders) > 1) {
        refuseBeforeHandler(request, response, cors, 400, "Bad Request", HOST_REPEATED);
        return;
      }
      handler(request, response);
    },
  );
  // An `Expect` other than 100-continue: Node's own 417 has no body.
  server.on("checkExpectation", (request: IncomingMessage, response: ServerResponse) =>
    refuseBeforeHandler(request, response, cors, 417, "Expectation Failed", {
      field: "Expect",
      rule: "http",
      message: "the only expectation this server meets is 100-continue",
    }),
  );
  // A client that half-closes (FIN right after its request) still gets the answer: by default
  // Node ends the socket at the client's FIN, so an answer given after an await is lost.
  // (A public field of Node's http.Server that @types/node does not declare.)
  Object.assign(server, { httpAllowHalfOpen: true });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(error, socket, cors),
  );
  // A client set to use this server as its HTTPS proxy asks for a tunnel (CONNECT), which Node
  // would drop without a word. Node hands its socket over: closeAllConnections no longer knows
  // it, so close() ends it itself (a client that kept it open held close() for ever).
  const handedOver = new Set<Duplex>();
  server.on("connect", (_request: unknown, socket: Duplex) => {
    handedOver.add(socket);
    socket.once("close", () => handedOver.delete(socket));
    endWithProblem(
      socket,
      cors,
      [405, "Method Not Allowed", CONNECT_REFUSED],
      "allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n",
    );
  });

  server.listen(port, host);
  try {
    await once(server, "listening");
  } catch (error) {
    throw listenError(error as NodeJS.ErrnoException, host, port);
  }

  const address = server.address() as AddressInfo;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of handedOver) socket.destroy();
      }),
  };
}

/**
 * What Node's HTTP parser refuses before a request exists (headers too large, a request that
 * timed out, malformed HTTP) still gets a problem body, then the connection closes.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, cors: boolean): void {
  endWithProblem(
    socket,
    cors,
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", HEAD_TOO_LARGE]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "the request was not complete in time"]
        : [400, "Bad Request", "the request is not valid HTTP/1.1"],
  );
}

/** A problem about one of the request's headers, answered before the handler sees the request. */
function refuseBeforeHandler(
  request: IncomingMessage,
  response: ServerResponse,
  cors: boolean,
  status: number,
  title: string,
  error: { field: string; rule: string; message: string },
): void {
  request.resume();
  const body = JSON.stringify(
    problem(status, "bad-http", title, [{ location: "header", ...error }]),
  );
  response
    .writeHead(status, {
      "content-type": PROBLEM_CONTENT_TYPE,
      "content-length": Buffer.byteLength(body),
      "x-request-id": randomUUID(),
      ...(cors && { "access-control-allow-origin": "*", "access-control-expose-headers": "*" }),
      connection: "close",
    })
    .end(body);
}

const HOST_MISSING = {
  field: "Host",
  rule: "required",
  message: "is required in an HTTP/1.1 request (RFC 9112): send the server's host and port",
};

const HOST_REPEATED = {
  field: "Host",
  rule: "unique",
  message: "is given more than once (RFC 9112 allows one): send the server's host and port once",
};

/** How many Host headers a request has (rawHeaders lists names and values in turn). */
function hostCount(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (rawHeaders[index]?.toLowerCase() === "host") count++;
  }
  return count;
}

const CONNECT_REFUSED =
  "CONNECT asks for a tunnel, which this server does not open: send each request to it as to the API (or, as to an HTTP proxy, with the absolute URL)";

/** A problem written on the socket itself, with `headers` (whole lines), then the connection closes. */
function endWithProblem(
  socket: Duplex,
  cors: boolean,
  [status, reason, message]: [number, string, string],
  headers = "",
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(
    problem(status, "bad-http", reason, [{ location: "route", field: "", rule: "http", message }]),
  );
  // The request's Origin is unknown here, so any origin may read the answer.
  const corsHeader = cors
    ? "access-control-allow-origin: *\r\naccess-control-expose-headers: *\r\n"
    : "";
  // No request was read, so none sent an id to keep: this answer gets a new one.
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: ${PROBLEM_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${randomUUID()}\r\n${headers}${corsHeader}connection: close\r\n\r\n${body}`,
  );
}

function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  if (error.code === "EADDRINUSE") {
    return new Error(`Port ${port} on ${host} is already in use; choose another with --port`, {
      cause: error,
    });
  }
  if (error.code === "EACCES") {
    return new Error(`No permission to listen on ${host}:${port}`, { cause: error });
  }
  if (["ENOTFOUND", "EAI_AGAIN", "EADDRNOTAVAIL"].includes(error.code ?? "")) {
    return new Error(
      `${host} is not an address of this machine; listen on one it has, such as 127.0.0.1, with --host`,
      { cause: error },
    );
  }
  return error;
}
