/**
 * The `fetch` the server's client sends with: node:http and node:https on keep-alive agents,
 * answering a `Response`. Every tool call is an MCP round trip with an HTTP call inside, and
 * Node's own fetch (undici's web-streams machinery) made that call cost more than the round trip
 * around it: on a loopback sandbox a create took about 250 µs more, a first page about 35 µs
 * (bench: the MCP server's "what the server adds"). Redirects are not followed: an answer is
 * what the API said, and the key goes nowhere the base URL does not name.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

const agents = {
  "http:": new HttpAgent({ keepAlive: true }),
  "https:": new HttpsAgent({ keepAlive: true }),
};

/** Statuses whose answer has no body, which a `Response` must be made without. */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

export async function nodeHttpFetch(input: Request): Promise<Response> {
  const url = new URL(input.url);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError(`fetch: ${url.protocol} is not http: or https:`);
  }
  const body = input.body === null ? undefined : Buffer.from(await input.arrayBuffer());
  const { signal } = input;
  signal.throwIfAborted();
  const headers: Record<string, string> = {};
  input.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<Response>((resolve, reject) => {
    const request = send(
      url,
      { method: input.method, headers, agent: agents[url.protocol as keyof typeof agents] },
      (message) => {
        readAll(message).then((bytes) => {
          signal.removeEventListener("abort", abort);
          resolve(responseOf(message, bytes));
        }, fail);
      },
    );
    function fail(error: unknown) {
      signal.removeEventListener("abort", abort);
      reject(error);
    }
    function abort() {
      request.destroy(signal.reason);
    }
    signal.addEventListener("abort", abort, { once: true });
    request.on("error", fail);
    request.end(body);
  });
}

function readAll(message: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on("data", (chunk: Buffer) => chunks.push(chunk));
    message.on("end", () => resolve(Buffer.concat(chunks)));
    message.on("error", reject);
    message.on("close", () => {
      if (!message.complete) reject(new Error("the connection closed before the answer ended"));
    });
  });
}

function responseOf(message: IncomingMessage, bytes: Uint8Array<ArrayBuffer>): Response {
  const status = message.statusCode ?? 0;
  const headers = new Headers();
  const raw = message.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2)
    headers.append(raw[i] as string, raw[i + 1] as string);
  return new Response(NO_BODY.has(status) ? null : bytes, {
    status,
    statusText: message.statusMessage ?? "",
    headers,
  });
}
