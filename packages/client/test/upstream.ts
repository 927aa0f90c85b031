// A fake payments API on 127.0.0.1, closed after each test (also when the test fails).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";
import { createClientOn, type Platform } from "../src/client.js";
import type { PaymentsClientOptions } from "../src/options.js";
import { sleep } from "../src/retry-policy.js";

interface Arrival {
  method: string;
  /** Path and query, e.g. `/customers?page_size=2`. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers the n-th request (1-based); may leave it hanging or destroy its socket. */
export type Handler = (arrival: Arrival, res: ServerResponse, n: number) => void;

export interface Upstream {
  baseUrl: string;
  arrivals: Arrival[];
  /** The query of the n-th arrival (0-based). */
  query(n: number): URLSearchParams;
}

const open: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

export async function startUpstream(handle: Handler): Promise<Upstream> {
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      const arrival = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      arrivals.push(arrival);
      handle(arrival, res, arrivals.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  open.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    arrivals,
    query: (n) => new URL(arrivals[n]?.url ?? "/", "http://x").searchParams,
  };
}

/** A port that was just free and now refuses connections. */
export async function refusedBaseUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/**
 * Calls `closed` once the request's connection is closed, also when the client closed it before
 * the handler ran (an attempt that timed out as its request arrived).
 */
export function whenClosed(res: ServerResponse, closed: () => void): void {
  if (res.socket === null || res.socket.destroyed) closed();
  else res.on("close", closed);
}

export function json(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export const API_KEY = "sk_test_do_not_leak_4242";

/**
 * A client whose waits between retries are recorded and skipped (still abortable), with
 * `random()` fixed at 0.5 and a fixed clock, so retry tests need no real time.
 */
export function testClient(options: Partial<PaymentsClientOptions> & { baseUrl: string }) {
  const waits: number[] = [];
  const platform: Platform = {
    sleep: (ms, signal) => {
      waits.push(ms);
      return sleep(0, signal);
    },
    random: () => 0.5,
    now: () => NOW,
  };
  // Attempts are counted where the client sends them: under load an attempt that times out
  // may never reach the upstream, so its arrivals can undercount.
  const attempts: Request[] = [];
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const client = createClientOn(platform, {
    apiKey: API_KEY,
    ...options,
    fetch: (request) => {
      attempts.push(request);
      return send(request);
    },
  });
  return { client, waits, attempts };
}

export const NOW = Date.parse("2026-01-01T00:00:00Z");
