// Forwards the console's requests from the docs server's own origin to the sandbox, so that the
// page keeps `connect-src 'self'` and needs no CORS. Method, path, query, headers and body go on
// as they came (less the hop-by-hop headers); the sandbox's answer comes back as it is.
import { type IncomingMessage, request, type ServerResponse } from "node:http";
import { pipeline } from "node:stream";

/** The path under which the docs server forwards to the sandbox: `/sandbox/customers` → `/customers`. */
export const PROXY_PREFIX = "/sandbox/";

/** How long the sandbox may take to answer before the console gets a 504. */
const UPSTREAM_TIMEOUT_MS = 30_000;

// RFC 9110 §7.6.1: meant for one connection, never forwarded. `host` is the sandbox's own.
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
]);

/** Headers without the hop-by-hop ones, and those the `connection` header names. */
function forwardable(headers: IncomingMessage["headers"]) {
  const named = String(headers.connection ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase());
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name, value]) => value !== undefined && !HOP_BY_HOP.has(name) && !named.includes(name),
    ),
  );
}

/** Sends `req` (whose URL starts with PROXY_PREFIX) on to `sandbox` and its answer back to `res`. */
export function forwardToSandbox(req: IncomingMessage, res: ServerResponse, sandbox: URL) {
  const rest = (req.url ?? "/").slice(PROXY_PREFIX.length - 1);
  // Joined to the sandbox's origin, never resolved against it: `/sandbox//other.host/x` would
  // otherwise name another host, and the docs server would fetch it for anyone.
  const target = new URL(`${sandbox.origin}${sandbox.pathname.replace(/\/$/, "")}${rest}`);
  const upstream = request(
    target,
    { method: req.method, headers: forwardable(req.headers), timeout: UPSTREAM_TIMEOUT_MS },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
      // An answer cut short ends the console's too, which would otherwise wait for the rest forever.
      pipeline(answer, res, () => {});
    },
  );
  upstream.on("timeout", () => {
    upstream.destroy();
    problem(
      res,
      504,
      "upstream-timeout",
      `the sandbox at ${sandbox.origin} did not answer in time`,
    );
  });
  upstream.on("error", (error: NodeJS.ErrnoException) => {
    problem(
      res,
      502,
      "upstream-unreachable",
      `the sandbox at ${sandbox.origin} could not be reached (${error.code ?? error.message})`,
    );
  });
  // A reader who leaves the page aborts the sandbox request too.
  res.on("close", () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}

function problem(res: ServerResponse, status: number, type: string, detail: string) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({
    type: `urn:org:payments-docs:problem:${type}`,
    title: status === 504 ? "Sandbox timeout" : "Sandbox unreachable",
    status,
    detail,
  });
  res
    .writeHead(status, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(body),
    })
    .end(body);
}
