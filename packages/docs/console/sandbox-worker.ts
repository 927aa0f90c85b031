// The in-page sandbox's service worker (built into the site as sandbox-worker.js, registered by
// in-page-sandbox.ts only when no sandbox answers at the console's URL). It holds one sandbox,
// @org/payments-mock's browser build, for every page of the site: its data outlives a page and
// lasts while a page of the site is open. It answers a page's requests under the URL that page
// asked it to serve, and lets every other request go to the network.
import { browserSandbox, type FetchSandbox } from "@org/payments-mock/browser";
import { pageMayCall } from "./reachable.ts";

/** What a page posts: serve its requests under `base` (sent again as a heartbeat), or stop. */
export type ToWorker = { type: "serve"; base: string } | { type: "stop" };
/**
 * What the worker answers a `serve`: its sandbox answers, or why it could not be made; then, once
 * a sandbox answers at `base` after all (started while the page is open), `found`: the worker no
 * longer answers that page's requests to it.
 */
export type FromWorker =
  | { type: "serving"; base: string; run: string }
  | { type: "failed"; reason: string }
  | { type: "found"; base: string };

// The service worker's own types (lib "WebWorker" does not mix with the DOM's the console uses).
interface WorkerClient {
  id: string;
  postMessage(message: FromWorker): void;
}
interface WorkerEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface WorkerFetchEvent extends WorkerEvent {
  request: Request;
  clientId: string;
  respondWith(answer: Promise<Response>): void;
}
interface WorkerMessageEvent extends WorkerEvent {
  data: ToWorker;
  source: WorkerClient | null;
}
interface WorkerScope {
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void>; matchAll(): Promise<WorkerClient[]> };
  addEventListener(type: "install" | "activate", listener: (event: WorkerEvent) => void): void;
  addEventListener(type: "fetch", listener: (event: WorkerFetchEvent) => void): void;
  addEventListener(type: "message", listener: (event: WorkerMessageEvent) => void): void;
}

const worker = self as unknown as WorkerScope;

/** How long the worker's own look at a page's URL waits (it looks again 10 s later). */
const PROBE_MS = 5_000;

/**
 * This run of the worker, and of its sandbox: the browser stops a worker it deems idle (a page in
 * the background sends its heartbeat late) and starts it again, empty, at the next event; a page
 * that sees another run knows that what it created is gone.
 */
const RUN = crypto.randomUUID();

/** The base URL each page (by its client id) asked to be answered under. */
const served = new Map<string, string>();
let sandbox: Promise<FetchSandbox> | undefined;

function opened(): Promise<FetchSandbox> {
  if (sandbox === undefined) {
    sandbox = browserSandbox({ webhookTransport: deliverOnThisMachine });
    sandbox.catch(() => {
      sandbox = undefined;
    });
  }
  return sandbox;
}

/**
 * Webhook deliveries go to a receiver on the reader's machine through fetch (as the page's own
 * requests may), and nowhere else: the site sends nothing to another host.
 */
async function deliverOnThisMachine({
  url,
  event,
  headers,
}: {
  url: string;
  event: unknown;
  headers: Record<string, string>;
}): Promise<number> {
  const { hostname, host } = new URL(url);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(hostname)) {
    throw new Error(
      `the sandbox in this page delivers webhooks only to this machine (127.0.0.1 or localhost), not to ${host}`,
    );
  }
  // A redirect is not followed: it could send the event on to another host.
  const answer = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify(event),
    redirect: "manual",
  });
  if (answer.type === "opaqueredirect") {
    throw new Error(`${url} answered a redirect, which the sandbox in this page does not follow`);
  }
  return answer.status;
}

/** Whether anything answers HTTP at `base`, as the page asks before it loads the worker. */
async function answers(base: string): Promise<boolean> {
  try {
    await fetch(`${base}/_sandbox/health`, {
      cache: "no-store",
      credentials: "omit",
      signal: AbortSignal.timeout(PROBE_MS),
    });
    return true;
  } catch {
    return false;
  }
}

/** Whether `url` is `base` or below it. */
function isUnder(url: string, base: string): boolean {
  return url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`);
}

worker.addEventListener("install", (event) => event.waitUntil(worker.skipWaiting()));
// The page that registered it is answered from its first request on, without a reload.
worker.addEventListener("activate", (event) => event.waitUntil(worker.clients.claim()));

worker.addEventListener("message", (event) => {
  const { source: client, data } = event;
  if (client === null) return;
  if (data.type === "stop") {
    served.delete(client.id);
    return;
  }
  // As the browser writes the URLs of the page's requests (`HTTP://LOCALHOST:4010/` is
  // `http://localhost:4010/`), so that they compare with it.
  const base = new URL(data.base).href.replace(/\/+$/, "");
  served.set(client.id, base);
  event.waitUntil(
    (async () => {
      // Pages gone (closed, or navigated away) are forgotten.
      const open = new Set((await worker.clients.matchAll()).map(({ id }) => id));
      for (const id of served.keys()) if (!open.has(id)) served.delete(id);
      try {
        await opened();
        client.postMessage({ type: "serving", base: data.base, run: RUN });
      } catch (error) {
        client.postMessage({
          type: "failed",
          reason: error instanceof Error ? error.message : String(error),
        });
        return;
      }
      // A sandbox started at the URL since (the page says it is there every 10 s): that page's
      // requests go to it from now on (the worker's own fetch is not its to answer).
      if (
        pageMayCall(base, self.location.origin) &&
        (await answers(base)) &&
        served.get(client.id) === base
      ) {
        served.delete(client.id);
        client.postMessage({ type: "found", base: data.base });
      }
    })(),
  );
});

worker.addEventListener("fetch", (event) => {
  const base = served.get(event.clientId);
  if (base === undefined || !isUnder(event.request.url, base)) return;
  event.respondWith(
    opened().then(async (made) => made.handle(await belowBase(event.request, base))),
  );
});

/**
 * The request as the sandbox routes it: a base URL may end in the service's path prefix
 * (`http://127.0.0.1:4010/api/v2`, as the API's servers say a partner's does), and the API's paths
 * follow it; the one sandbox of every page answers the paths below whichever base a page serves.
 */
async function belowBase(request: Request, base: string): Promise<Request> {
  const { origin, pathname } = new URL(base);
  if (pathname === "/") return request;
  const rest = request.url.slice(base.length);
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return new Request(`${origin}${rest.startsWith("/") ? rest : `/${rest}`}`, {
    method: request.method,
    headers: request.headers,
    ...(hasBody && { body: await request.arrayBuffer() }),
  });
}
