// The server's fetch: undici's request on a keep-alive agent, answering a Response as the
// platform's fetch would for what the API sends, except that it follows no redirect.
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_DECODED_BYTES, undiciFetch } from "../src/undici-fetch.ts";

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;
const routes = new Map<string, Handler>([
  [
    "/echo",
    (request, body, response) => {
      response.setHeader("set-cookie", ["a=1", "b=2"]);
      response.writeHead(201, "Made", { "content-type": "application/json", "x-request-id": "r1" });
      response.end(JSON.stringify({ method: request.method, headers: request.headers, body }));
    },
  ],
  ["/empty", (_, __, response) => response.writeHead(204).end()],
  // Compressed whatever the request accepts, as some proxies and CDNs answer.
  [
    "/gzip",
    (_, __, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      response.end(gzipSync('{"items":["é"]}'));
    },
  ],
  [
    "/br",
    (_, __, response) => {
      response.writeHead(422, { "content-type": "application/json", "content-encoding": "br" });
      response.end(brotliCompressSync('{"title":"bad"}'));
    },
  ],
  [
    "/not-gzip",
    (_, __, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      response.end("not gzip at all");
    },
  ],
  // A gzip bomb: 65 KiB on the wire, one byte past the decoded limit.
  [
    "/bomb",
    (_, __, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      response.end(gzipSync(Buffer.alloc(MAX_DECODED_BYTES + 1, 32)));
    },
  ],
  ["/moved", (_, __, response) => response.writeHead(302, { location: "/echo" }).end()],
  // Never answers: a call to it ends only by its signal.
  ["/hang", () => undefined],
]);
let closed = 0;
/** The URLs of the requests that arrived. */
const arrived: string[] = [];
const server = createServer((request, response) => {
  arrived.push(request.url ?? "");
  let body = "";
  request.on("data", (chunk: Buffer) => {
    body += chunk.toString();
  });
  request.on("end", () =>
    routes.get(new URL(request.url ?? "/", "http://x").pathname)?.(request, body, response),
  );
});
server.on("connection", (socket) => socket.on("close", () => closed++));
let base = "";

beforeAll(async () => {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, "close");
});

describe("undiciFetch", () => {
  it("sends the method, headers and body, and answers status, headers and body", async () => {
    const response = await undiciFetch(
      new Request(`${base}/echo?q=1`, {
        method: "POST",
        headers: { "X-API-Key": "k", "Content-Type": "application/json" },
        body: '{"a":"é"}',
      }),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get("x-request-id")).toBe("r1");
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    const seen = (await response.json()) as {
      method: string;
      headers: Record<string, string>;
      body: string;
    };
    expect(seen.method).toBe("POST");
    expect(seen.headers["x-api-key"]).toBe("k");
    expect(seen.headers["content-length"]).toBe(String(Buffer.byteLength('{"a":"é"}')));
    expect(seen.body).toBe('{"a":"é"}');
  });

  it("reuses one connection for calls in turn", async () => {
    const before = closed;
    for (let i = 0; i < 3; i++) await (await undiciFetch(new Request(`${base}/echo`))).text();
    expect(closed).toBe(before);
  });

  it("answers a 204 with no body", async () => {
    const response = await undiciFetch(new Request(`${base}/empty`, { method: "DELETE" }));
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it("decodes a compressed body, as the platform's fetch does", async () => {
    expect(await (await undiciFetch(new Request(`${base}/gzip`))).json()).toEqual({
      items: ["é"],
    });
    expect(await (await undiciFetch(new Request(`${base}/br`))).json()).toEqual({ title: "bad" });
    // Bytes the encoding does not decode fail as the body is read, with zlib's code.
    const broken = await undiciFetch(new Request(`${base}/not-gzip`));
    await expect(broken.text()).rejects.toMatchObject({ code: "Z_DATA_ERROR" });
  });

  it("stops decoding a body past its limit, as it does bytes that do not decode", async () => {
    const bomb = await undiciFetch(new Request(`${base}/bomb`));
    await expect(bomb.text()).rejects.toMatchObject({ code: "ERR_BUFFER_TOO_LARGE" });
  });

  it("follows no redirect: the answer is what the base URL said", async () => {
    const response = await undiciFetch(new Request(`${base}/moved`));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/echo");
  });

  it("stops a call when its signal aborts, with the signal's reason", async () => {
    const controller = new AbortController();
    const call = undiciFetch(new Request(`${base}/hang`, { signal: controller.signal }));
    setImmediate(() => controller.abort(new Error("given up")));
    await expect(call).rejects.toThrow("given up");
  });

  it("sends nothing when the signal has aborted already", async () => {
    const signal = AbortSignal.abort(new Error("early"));
    await expect(undiciFetch(new Request(`${base}/echo?aborted`, { signal }))).rejects.toThrow(
      "early",
    );
    // A call after it arrives; the aborted one, sent before it, would have arrived first.
    await (await undiciFetch(new Request(`${base}/echo?after`))).text();
    expect(arrived).toContain("/echo?after");
    expect(arrived).not.toContain("/echo?aborted");
  });

  it("speaks TLS to an https: URL (a plain server fails its handshake)", async () => {
    await expect(undiciFetch(new Request(base.replace("http:", "https:")))).rejects.toThrow();
  });

  it("refuses a URL that is not http: or https:", async () => {
    await expect(undiciFetch(new Request("data:text/plain,hi"))).rejects.toThrow(TypeError);
  });

  it("rejects when nothing listens", async () => {
    const idle = createServer();
    idle.listen(0, "127.0.0.1");
    await once(idle, "listening");
    const { port } = idle.address() as AddressInfo;
    idle.close();
    await once(idle, "close");
    await expect(undiciFetch(new Request(`http://127.0.0.1:${port}/`))).rejects.toThrow(
      /ECONNREFUSED/,
    );
  });
});
