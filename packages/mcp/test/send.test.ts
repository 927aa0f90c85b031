// The test mode's PUT and DELETE routes, which the API's client does not send, go by fetch: the
// path's parameters in place, the key in X-API-Key, the body as JSON, and a refusal as the API
// error a client call gives, with the key taken out of it.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { createPaymentsClient, PaymentsApiError } from "@org/payments-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool } from "../src/call-tool.ts";
import { testModeIdentity, tools } from "../src/generated/tools.ts";
import { contextOf } from "../src/options.ts";
import { sendWith } from "../src/send.ts";
import { SECRET_KEY } from "./support/session.js";

const arrived: {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}[] = [];
const server = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk: Buffer) => {
    body += chunk.toString();
  });
  request.on("end", () => {
    arrived.push({
      method: request.method ?? "",
      url: request.url ?? "",
      headers: request.headers,
      body,
    });
    if (request.url?.startsWith("/documents")) {
      // A redirect elsewhere, quoting the key it was sent with (URL-encoded, as a query would).
      const key = encodeURIComponent(String(request.headers["x-api-key"]));
      response.writeHead(302, { location: `https://elsewhere.example/documents?key=${key}` });
      response.end();
      return;
    }
    if (request.url?.startsWith("/customers")) {
      // An error page far longer than a tool error quotes, the key in it across the cut.
      const page = `${"x".repeat(9_990)}${request.headers["x-api-key"]}${"y".repeat(50_000)}`;
      response.writeHead(400, { "content-type": "text/html" });
      response.end(page);
      return;
    }
    const refused = request.url?.includes("missing");
    response.writeHead(refused ? 404 : 200, {
      "content-type": "application/json",
      "x-request-id": "req-1",
    });
    response.end(
      JSON.stringify(
        refused ? { title: "Not found", detail: `key ${request.headers["x-api-key"]}` } : { ok: 1 },
      ),
    );
  });
});
let baseUrl = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("a PUT or DELETE of the test mode", () => {
  it("is sent with its path, query, key and JSON body, and answers the parsed JSON", async () => {
    const send = sendWith(
      createPaymentsClient({ apiKey: SECRET_KEY, baseUrl }),
      SECRET_KEY,
      baseUrl,
    );
    const put = await send("PUT", "/_sandbox/things/{id}", {
      params: { path: { id: "a b/c" }, query: { n: 2 }, header: {} },
      body: { requests_per_second: 5 },
    });
    expect(put.data).toEqual({ ok: 1 });
    expect(put.requestId).toBe("req-1");
    const deleted = await send("DELETE", "/_sandbox/things/{id}", {
      params: { path: { id: "x" }, query: {}, header: {} },
    });
    expect(deleted.response.status).toBe(200);
    expect(arrived.map((r) => `${r.method} ${r.url}`)).toEqual([
      "PUT /_sandbox/things/a%20b%2Fc?n=2",
      "DELETE /_sandbox/things/x",
    ]);
    expect(arrived[0]?.headers["x-api-key"]).toBe(SECRET_KEY);
    expect(arrived[0]?.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(arrived[0]?.body ?? "")).toEqual({ requests_per_second: 5 });
    expect(arrived[1]?.body).toBe("");
  });

  it("answers a refusal as an API error, without the key", async () => {
    const send = sendWith(
      createPaymentsClient({ apiKey: SECRET_KEY, baseUrl }),
      SECRET_KEY,
      baseUrl,
    );
    const result = await send("DELETE", "/_sandbox/things/{id}", {
      params: { path: { id: "missing" }, query: {}, header: {} },
    });
    expect(result.error).toBeInstanceOf(PaymentsApiError);
    expect(result.error?.status).toBe(404);
    expect(JSON.stringify(result.error?.body)).not.toContain(SECRET_KEY);
    expect(result.error?.message).toContain("HTTP 404");
  });
});

describe("a redirect", () => {
  it("is a tool error with its status and Location, not followed, without the key", async () => {
    const key = `${SECRET_KEY}/+`;
    const context = contextOf({ apiKey: key, baseUrl, log: () => undefined });
    const listDocuments = tools.find((tool) => tool.name === "listDocuments");
    const result = await callTool(context, listDocuments as NonNullable<typeof listDocuments>, {});
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe(
      "listDocuments failed with HTTP 302: a redirect, not followed\nLocation: https://elsewhere.example/documents?key=[redacted]",
    );
  });
});

describe("a long error body", () => {
  it("is quoted up to 10,000 characters, saying how much was cut, without any of the key", async () => {
    const context = contextOf({ apiKey: SECRET_KEY, baseUrl, log: () => undefined });
    const listCustomers = tools.find((tool) => tool.name === "listCustomers");
    const result = await callTool(context, listCustomers as NonNullable<typeof listCustomers>, {});
    expect(result.isError).toBe(true);
    const text = result.content.map((part) => part.text).join("\n");
    expect(text.length).toBeLessThan(11_000);
    expect(text).toContain(`${"x".repeat(9_990)}[redacted]`);
    expect(text).toMatch(/… \(\d[\d,]* more characters of the body cut\)/);
    expect(text).not.toContain(SECRET_KEY.slice(0, 12));
  });
});

describe("a test-mode write", () => {
  it("is sent once, not retried: the sandbox would move its clock a second time", async () => {
    let advances = 0;
    const sandbox = createServer((request, response) => {
      response.setHeader("content-type", "application/json");
      if (request.url === "/_sandbox/openapi.json") {
        const document = {
          openapi: "3.1.0",
          info: {
            title: testModeIdentity.title,
            version: "1",
            [testModeIdentity.marker.name]: testModeIdentity.marker.value,
          },
          paths: {
            "/_sandbox/openapi.json": { get: { operationId: "getTestModeDocument" } },
            "/_sandbox/clock/advance": { post: { operationId: "advanceClock" } },
          },
        };
        response.end(JSON.stringify(document));
        return;
      }
      // The clock moved, but the answer says the server failed: a retry would move it again.
      advances++;
      response.writeHead(503).end(JSON.stringify({ title: "Try again" }));
    });
    await new Promise<void>((resolve) => sandbox.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(sandbox.address() as AddressInfo).port}`;
      const context = contextOf({ apiKey: SECRET_KEY, baseUrl: url, log: () => undefined });
      const advance = tools.find((tool) => tool.name === "advanceClock");
      const result = await callTool(context, advance as NonNullable<typeof advance>, {
        seconds: 60,
      });
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toContain("failed with HTTP 503");
      expect(advances).toBe(1);
    } finally {
      sandbox.closeAllConnections();
      await new Promise<void>((resolve) => sandbox.close(() => resolve()));
    }
  });
});
