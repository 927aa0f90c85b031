// startMock(): the mock as an in-process HTTP server, for tests and for the CLI.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { bundledSpecPath } from "./bundled-spec.js";
import { createHandler, type RequestLogger } from "./handler.js";
import { createPrismEngine, type PrismEngine } from "./prism.js";
import { PROBLEM_CONTENT_TYPE, problem } from "./problem.js";
import { createSandbox } from "./sandbox/sandbox.js";
import { watchFile } from "./watch-file.js";

export interface MockOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Generate response data from the schemas instead of returning the spec's examples. Default false. */
  dynamic?: boolean;
  /** Path of the OpenAPI document to mock. Default: the copy of the partner payments spec shipped in the package. */
  spec?: string;
  /** Reload the spec when its file changes. Default false. */
  watch?: boolean;
  /** Called with one line per request (method, path, status), and on a spec reload. */
  log?: RequestLogger;
  /** Serve the stateful sandbox (see the README) instead of the spec's examples. Default false. */
  stateful?: boolean;
  /**
   * Sandbox only: where its data persists: a SQLite database file (a payments-mock 0.1 JSON state
   * file there is migrated into one, the JSON kept as a backup), or a `postgres://` URL that
   * several mocks share. Default: none (data lives in memory).
   */
  state?: string;
  /** Sandbox only: a seed file's path or a seed object. Default: a seed made of the spec's examples. */
  seed?: string | object;
  /** Answer CORS preflights and put CORS headers on every answer, so browser apps can call the mock. Default true. */
  cors?: boolean;
  /** Connection time limits in ms; see the README's "Limits". Defaults: headers 10 000, whole request 30 000, keep-alive idle 5 000. */
  limits?: Partial<ConnectionLimits>;
}

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

export interface RunningMock {
  /** Base URL, such as `http://127.0.0.1:4010`; pass it as the client's `baseUrl`. */
  url: string;
  port: number;
  /** Stops listening and closes every open connection. Safe to call more than once. */
  stop(): Promise<void>;
}

/** Starts the mock and resolves once it answers requests. */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const {
    port = 0,
    host = "127.0.0.1",
    dynamic = false,
    spec = bundledSpecPath(),
    log,
    cors = true,
  } = options;
  let engine: PrismEngine = await createPrismEngine(spec, dynamic);
  const sandbox = options.stateful
    ? await createSandbox({
        operations: engine.operations,
        state: options.state,
        seed: options.seed,
        ...(log !== undefined && { log }),
      })
    : undefined;
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const server = createServer(
    {
      headersTimeout: limits.headersMs,
      requestTimeout: limits.requestMs,
      keepAliveTimeout: limits.keepAliveMs,
      // How often Node checks the two timeouts above; its default (30 s) would blur them.
      connectionsCheckingInterval: Math.min(1_000, limits.headersMs),
    },
    createHandler(() => engine, { log, sandbox, cors }),
  );
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(error, socket, cors),
  );

  server.listen(port, host);
  try {
    await once(server, "listening");
  } catch (error) {
    throw listenError(error as NodeJS.ErrnoException, host, port);
  }

  const unwatch = options.watch
    ? watchFile(spec, async () => {
        try {
          engine = await createPrismEngine(spec, dynamic);
          log?.(`spec reloaded from ${spec}`);
        } catch (error) {
          log?.(`spec not reloaded, keeping the previous one: ${(error as Error).message}`);
        }
      })
    : () => {};

  const address = server.address() as AddressInfo;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let stopped: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        unwatch();
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => sandbox?.close());
      return stopped;
    },
  };
}

/**
 * What Node's HTTP parser refuses before a request exists (headers too large, a request that
 * timed out, malformed HTTP) still gets a problem body, then the connection closes.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, cors: boolean): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [
          431,
          "Request Header Fields Too Large",
          "the request line and headers must be at most 16 KiB",
        ]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "the request was not complete in time"]
        : [400, "Bad Request", "the request is not valid HTTP/1.1"];
  const body = JSON.stringify(
    problem(status, "bad-http", reason, [{ location: "route", field: "", rule: "http", message }]),
  );
  // The request's Origin is unknown here, so any origin may read the answer.
  const corsHeader = cors ? "access-control-allow-origin: *\r\n" : "";
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: ${PROBLEM_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${corsHeader}connection: close\r\n\r\n${body}`,
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
  return error;
}
