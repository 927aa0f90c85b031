// A plain node:http client for the proxy tests: it sends headers fetch will not (Connection,
// Keep-Alive, Proxy-Authorization) and returns the answer's bytes as they came.
import { request } from "node:http";
import { REQUEST_TIMEOUT_MS } from "@org/payments-testing";

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
  json(): unknown;
}

export interface RawRequest {
  method?: string;
  /** The request target: `/customers?page_size=5`, or absolute-form `http://host/customers`. */
  target: string;
  /** By name, or as raw `[name, value, …]` pairs to send a header more than once. */
  headers?: Record<string, string> | string[];
  body?: string | Buffer;
  signal?: AbortSignal;
}

/** Sends one request to `baseUrl` on a fresh connection; fails rather than hang. */
export function send(baseUrl: string, options: RawRequest): Promise<RawAnswer> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request({
      host: base.hostname,
      port: base.port,
      method: options.method ?? "GET",
      path: options.target,
      headers: options.headers,
      agent: false,
      signal: options.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    outgoing.once("error", reject);
    outgoing.once("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("error", reject);
      response.once("end", () => {
        const body = Buffer.concat(chunks);
        const text = body.toString("utf8");
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body,
          text,
          json: () => JSON.parse(text),
        });
      });
    });
    outgoing.end(options.body);
  });
}
