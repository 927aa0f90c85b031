// The proxy's side of the exchange with the upstream: one request on, its response's head back,
// or a prompt reason why there is none (unreachable, reset, too slow).
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { REQUEST_ID } from "@org/payments-engine";
import { endToEndHeaders, type HeaderPair } from "./hop-by-hop.js";

export interface Upstream {
  url: URL;
  /** How long the upstream may take to answer, and to send the next part of its body. */
  timeoutMs: number;
  agent: HttpAgent;
}

export function createUpstream(url: URL, timeoutMs: number): Upstream {
  const agent =
    url.protocol === "https:"
      ? new HttpsAgent({ keepAlive: true })
      : new HttpAgent({ keepAlive: true });
  return { url, timeoutMs, agent };
}

type UpstreamAnswer =
  | { ok: true; response: IncomingMessage }
  | { ok: false; status: 502 | 504; message: string };

export interface UpstreamCall {
  /** Destroying it aborts the call (the client went away). */
  request: ClientRequest;
  answer: Promise<UpstreamAnswer>;
}

/**
 * Sends a request on unchanged but for Host, Content-Length, the hop-by-hop headers, Via and
 * `x-request-id` (the id the proxy's answer carries, so the upstream can log the same one).
 */
export function callUpstream(
  upstream: Upstream,
  incoming: IncomingMessage,
  pathAndQuery: string,
  body: Buffer,
  requestId: string,
): UpstreamCall {
  const headers: HeaderPair[] = [
    ["host", upstream.url.host],
    ...endToEndHeaders(incoming.rawHeaders).filter(
      ([name]) => !["host", "content-length", REQUEST_ID].includes(name.toLowerCase()),
    ),
    [REQUEST_ID, requestId],
  ];
  if (body.length > 0 || incoming.headers["content-length"] !== undefined) {
    headers.push(["content-length", String(body.length)]);
  }
  const send = upstream.url.protocol === "https:" ? httpsRequest : httpRequest;
  const request = send(upstream.url, {
    method: incoming.method,
    path: `${upstream.url.pathname.replace(/\/$/, "")}${pathAndQuery}`,
    headers: headers.flat(),
    agent: upstream.agent,
  });
  const origin = upstream.url.origin;
  const answer = new Promise<UpstreamAnswer>((resolve) => {
    const timer = setTimeout(() => {
      request.destroy();
      resolve({
        ok: false,
        status: 504,
        message: `${origin} did not answer within ${upstream.timeoutMs} ms`,
      });
    }, upstream.timeoutMs);
    request.once("response", (response) => {
      clearTimeout(timer);
      // From here on, a body that stalls this long ends the exchange.
      request.setTimeout(upstream.timeoutMs, () => request.destroy());
      resolve({ ok: true, response });
    });
    request.once("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({
        ok: false,
        status: 502,
        message:
          error.code === "ECONNRESET"
            ? `${origin} closed the connection without an answer (ECONNRESET)`
            : `${origin} could not be reached (${error.code ?? error.message})`,
      });
    });
  });
  request.end(body);
  return { request, answer };
}
