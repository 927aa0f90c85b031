// The proxy's side of the exchange with the upstream: one request on, its response's head back,
// or a prompt reason why there is none (unreachable, reset, too slow).
import type { Agent, ClientRequest, IncomingMessage } from "node:http";
import { REQUEST_ID } from "@org/payments-engine";
import { endToEndHeaders, type HeaderPair } from "./hop-by-hop.js";

export interface Upstream {
  url: URL;
  /** How long the upstream may take to answer, and to send the next part of its body. */
  timeoutMs: number;
  agent: Agent;
  /** node:http or node:https, as the url's scheme says. */
  client: typeof import("node:http") | typeof import("node:https");
}

export function createUpstream(url: URL, timeoutMs: number): Upstream {
  // Node's own modules rather than imports: an import of node:http reads every export of it, and
  // its WebSocket getters load Node's fetch (undici), a tenth of a proxy's start; node:https (and
  // TLS with it) loads only for an https upstream.
  const client = process.getBuiltinModule(url.protocol === "https:" ? "node:https" : "node:http");
  return { url, timeoutMs, agent: new client.Agent({ keepAlive: true }), client };
}

/** The answers whose body stalled past the time limit (and so were broken off), and the words. */
export const stalled = new WeakMap<IncomingMessage, string>();

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
  const request = upstream.client.request(upstream.url, {
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
    const noAnswer = (message: string) => {
      clearTimeout(timer);
      request.destroy();
      resolve({ ok: false, status: 502, message: `${origin} ${message}` });
    };
    // Node gives a 101 to a request that asked for no upgrade (the proxy sends Upgrade on to no
    // one) only here, and would otherwise wait out the time limit.
    request.once("upgrade", (_response, socket) => {
      socket.destroy();
      noAnswer("switched protocols (101), though no upgrade was asked for");
    });
    request.once("response", (response) => {
      // Node reads a status such as 000 or 099, but no answer can be sent on with it.
      if (response.statusCode === undefined || response.statusCode < 100) {
        noAnswer(`answered status ${response.statusCode}, which is not an HTTP status`);
        return;
      }
      // A 101 without `Connection: upgrade` comes here, not as an upgrade: sent on, it would tell
      // the client its connection had switched protocols.
      if (response.statusCode === 101) {
        noAnswer("switched protocols (101), though no upgrade was asked for");
        return;
      }
      clearTimeout(timer);
      // From here on, a body that stalls this long ends the exchange.
      request.setTimeout(upstream.timeoutMs, () => {
        stalled.set(response, `${origin} sent no more of its body within ${upstream.timeoutMs} ms`);
        request.destroy();
      });
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
            : // Node's parser refused what came (HPE_…): the upstream was reached, and answered.
              error.code?.startsWith("HPE_")
              ? `${origin} answered what is not valid HTTP (${error.code}: ${error.message})`
              : `${origin} could not be reached (${error.code ?? error.message})`,
      });
    });
  });
  request.end(body);
  return { request, answer };
}
