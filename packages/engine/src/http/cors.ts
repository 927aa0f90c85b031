// CORS, so that browser apps can call the mock from another origin. Like stock Prism, the mock
// allows every origin, every method and header a preflight asks for, and exposes every header.
import type { IncomingMessage, ServerResponse } from "node:http";

/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = "600";

/** The CORS headers of every answer, as names and values in turn (writeHead's array form). */
export function corsHeaders(request: IncomingMessage): string[] {
  return [
    "access-control-allow-origin",
    request.headers.origin ?? "*",
    "access-control-expose-headers",
    "*",
    "vary",
    "Origin",
  ];
}

/** The CORS headers of every answer (set before the answer is written, so errors carry them too). */
export function setCorsHeaders(request: IncomingMessage, response: ServerResponse): void {
  const headers = corsHeaders(request);
  for (let index = 0; index < headers.length; index += 2) {
    response.setHeader(headers[index] as string, headers[index + 1] as string);
  }
}

/** A preflight is an OPTIONS request with an `Origin` and an `Access-Control-Request-Method`. */
export function isPreflight(request: IncomingMessage): boolean {
  return (
    request.method === "OPTIONS" &&
    request.headers.origin !== undefined &&
    request.headers["access-control-request-method"] !== undefined
  );
}

/** Allows the method and headers the preflight asks for, with no body. */
export function answerPreflight(request: IncomingMessage, response: ServerResponse): void {
  const method = request.headers["access-control-request-method"] ?? "";
  const headers = request.headers["access-control-request-headers"];
  response.setHeader("access-control-allow-methods", method);
  if (headers !== undefined) response.setHeader("access-control-allow-headers", headers);
  response.setHeader("access-control-max-age", PREFLIGHT_MAX_AGE);
  response.writeHead(204, { "content-length": "0" }).end();
}
