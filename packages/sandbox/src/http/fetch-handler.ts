// The sandbox as a WHATWG fetch handler, Request → Response, with no server: the same composition
// (respondSandbox) as the Node server, reading a request's bytes and collecting its answer in plain
// terms. What MSW's handlers and the in-page sandbox answer with (in Node, fetch-sandbox.ts opens
// the sandbox; in a page, browser-sandbox.ts).
import {
  type PlainAnswer,
  PlainReply,
  type PlainRequest,
  type PrismEngine,
  problem,
  REQUEST_ID,
  requestIdOf,
  sendProblem,
} from "@org/payments-engine";
import type { Sandbox } from "../compose-sandbox.js";
import {
  newApiKey,
  type SandboxControls,
  type SandboxPartner,
  sandboxControls,
  sandboxPartner,
} from "../controls.js";
import { respondSandbox } from "./respond-sandbox.js";
import { sandboxFailure } from "./send-answer.js";

/** A sandbox answering fetch's requests, with the typed controls of the partner of `apiKey`. */
export interface FetchSandbox extends SandboxControls {
  /** Answers a request under `url` (any origin is taken as the sandbox's). */
  handle(request: Request): Promise<Response>;
  /** fetch's signature, answered by `handle`: give it to a client as its `fetch`. */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  url: string;
  apiKey: string;
  /** A partner of its own: a new key, with the controls bound to it. */
  newPartner(): SandboxPartner;
  /** Closes the sandbox (its scheduler and store). Safe to call more than once. */
  close(): Promise<void>;
}

/** Where a sandbox answers fetch's requests: the one composition, under a base URL. */
export interface FetchParts {
  sandbox: Sandbox;
  /** The engine of the API's document. */
  engine: PrismEngine;
  /** The engine of the test-mode document, made at the first request under /_sandbox/. */
  controlEngine: () => Promise<PrismEngine>;
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
}

/** The sandbox answering fetch's requests, with the typed controls of the partner of `apiKey`. */
export function sandboxOverFetch(parts: FetchParts): FetchSandbox {
  const { sandbox, engine, controlEngine, baseUrl = "http://sandbox.test", apiKey } = parts;
  const respond = respondSandbox<PlainReply>({ sandbox, engine: () => engine, controlEngine });
  const url = baseUrl.replace(/\/+$/, "");
  // A partner's base URL ends in the service's path prefix (`https://host/api/v2`): the API's
  // paths follow it.
  const prefix = new URL(url).pathname.replace(/\/+$/, "");
  const handle = async (request: Request): Promise<Response> => {
    const { pathname, search } = new URL(request.url);
    const plain: PlainRequest = {
      method: request.method,
      url: (pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) : pathname) + search,
      headers: Object.fromEntries(request.headers),
      body: new Uint8Array(await request.arrayBuffer()),
    };
    const reply = new PlainReply();
    reply.setHeader(REQUEST_ID, requestIdOf(plain, engine.apiKeyHeader));
    await respond(plain, reply).catch((error: unknown) => {
      const failure =
        sandboxFailure(error) ??
        problem(500, "sandbox-error", "The sandbox failed", [
          { location: "route", field: "", rule: "sandbox", message: (error as Error).message },
        ]);
      sendProblem(reply, failure);
    });
    const response = responseOf(reply.answer(), request.method);
    // As fetch's answer names its URL: the controls' errors name the route they called from it.
    Object.defineProperty(response, "url", { value: request.url, configurable: true });
    return response;
  };
  const fetch = (input: RequestInfo | URL, init?: RequestInit) =>
    handle(new Request(typeof input === "string" ? new URL(input, `${url}/`) : input, init));
  const key = apiKey ?? newApiKey();
  let closed: Promise<void> | undefined;
  return {
    handle,
    fetch,
    url,
    apiKey: key,
    ...sandboxControls(url, { apiKey: key, fetch }),
    newPartner: () => sandboxPartner(url, { fetch }),
    close() {
      closed ??= sandbox.close();
      return closed;
    },
  };
}

/**
 * The plain answer as a Response: a dropped connection is a network error, as fetch sees one. A
 * whole body is framed by its length, as a server frames it: MSW 3's setupServer writes the answer
 * to an emulated socket, and ends the connection after an answer of unknown length, so that each
 * request would open a new one.
 */
function responseOf(answer: PlainAnswer, method: string): Response {
  if (answer.dropped) return Response.error();
  const { status, headers, body } = answer;
  if (typeof body === "string") {
    if (method === "HEAD" || status === 204 || status === 304) {
      return new Response(null, { status, headers });
    }
    const bytes = new TextEncoder().encode(body);
    const length = String(bytes.byteLength);
    return new Response(bytes, { status, headers: { ...headers, "content-length": length } });
  }
  const encoder = new TextEncoder();
  let cancelled: (() => void) | undefined;
  // The writer waits for the reader: what it has not taken is not added to without bound.
  let wanted: (() => void) | undefined;
  const wake = () => {
    const waiting = wanted;
    wanted = undefined;
    waiting?.();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const room = () => (controller.desiredSize ?? 1) > 0;
      body.start({
        write: (text) => {
          controller.enqueue(encoder.encode(text));
          return room();
        },
        drained: () =>
          room()
            ? Promise.resolve()
            : new Promise<void>((resolve) => {
                wanted = resolve;
              }),
        end: () => controller.close(),
        onCancel: (listener) => {
          cancelled = listener;
        },
      });
    },
    pull: wake,
    cancel() {
      cancelled?.();
      wake();
    },
  });
  return new Response(stream, { status, headers });
}
