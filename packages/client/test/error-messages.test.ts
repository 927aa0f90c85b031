// What each error's message says: the cause, where the request went, which limit fired; never
// the API key, and never longer than a reader can take in.
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { PaymentsApiError, PaymentsConnectionError, PaymentsTimeoutError } from "../src/index.js";
import { API_KEY, json, refusedBaseUrl, startUpstream, testClient } from "./upstream.js";

function renderings(error: unknown): string[] {
  return [String(error), JSON.stringify(error), inspect(error, { depth: 10 })];
}

/** The mock's problem body: RFC 9457's fields and a list of errors. */
const mockProblem = {
  type: "urn:org:payments-mock:problem:invalid-request",
  title: "Invalid request",
  status: 422,
  detail: "query page_size: must be at most 100; query cursor: must be a UUID",
  errors: [
    { location: "query", field: "page_size", rule: "maximum", message: "must be at most 100" },
    { location: "query", field: "cursor", rule: "format", message: "must be a UUID" },
  ],
};

describe("a PaymentsApiError's message", () => {
  it.each([
    [
      "the first of a problem's errors, its field and rule, and how many more",
      mockProblem,
      "listCustomers failed with HTTP 422: query page_size: must be at most 100 (and 1 more) (request id req_1)",
    ],
    [
      "an RFC 9457 problem's detail",
      { type: "about:blank", title: "Conflict", detail: "the email is taken" },
      "listCustomers failed with HTTP 422: the email is taken (request id req_1)",
    ],
    [
      "an RFC 9457 problem's title when it has no detail",
      { type: "about:blank", title: "Payment required" },
      "listCustomers failed with HTTP 422: Payment required (request id req_1)",
    ],
    [
      "an error entry with a rule but no message",
      { errors: [{ field: "email", rule: "format" }] },
      "listCustomers failed with HTTP 422: email: format (request id req_1)",
    ],
    [
      "a nested error's message",
      { error: { message: "No such customer", type: "invalid_request_error" } },
      "listCustomers failed with HTTP 422: No such customer (request id req_1)",
    ],
    [
      "nothing from a body that says nothing",
      { ok: false },
      "listCustomers failed with HTTP 422 (request id req_1)",
    ],
  ])("carries %s", async (_, body, message) => {
    const upstream = await startUpstream((_, res) =>
      json(res, 422, body, { "x-request-id": "req_1" }),
    );
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const { error } = await client.GET("/customers");
    expect(error?.message).toBe(message);
    // The fields stay what code reads.
    expect(error).toMatchObject({
      status: 422,
      body,
      requestId: "req_1",
      operation: "listCustomers",
    });
  });

  it("quotes a plain-text body but not an HTML page", async () => {
    const upstream = await startUpstream((arrival, res) => {
      const html = arrival.url.startsWith("/documents");
      res.writeHead(400, { "content-type": html ? "text/html" : "text/plain" });
      res.end(html ? "<html><body>Bad request</body></html>" : "page_size\tis too large\n");
    });
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    expect((await client.GET("/customers")).error?.message).toBe(
      "listCustomers failed with HTTP 400: page_size is too large",
    );
    expect((await client.GET("/documents")).error?.message).toBe(
      "listDocuments failed with HTTP 400",
    );
  });

  it("is bounded however long the body's words and the request id are, and never shows the key", async () => {
    const long = `${"very ".repeat(2_000)}long`;
    const upstream = await startUpstream((arrival, res) =>
      json(
        res,
        400,
        {
          errors: [
            {
              location: "body",
              field: "email",
              message: `${arrival.headers["x-api-key"]} ${long}`,
            },
          ],
        },
        { "x-request-id": `req-${"x".repeat(5_000)}` },
      ),
    );
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const { error } = await client.POST("/customers", {
      body: { customer_type: "Person", email: "a@example.com" },
    });
    expect(error?.message).toMatch(
      /^createCustomer failed with HTTP 400: body email: \[redacted\] very very/,
    );
    // At most 200 characters of the body's words and 200 of the request id.
    expect(error?.message.length).toBeLessThan(500);
    // The fields keep everything.
    expect(error?.requestId).toHaveLength(5_004);
    for (const text of renderings(error)) expect(text).not.toContain(API_KEY);
  });

  it("says when the answer was replayed for a repeated idempotency key", async () => {
    const upstream = await startUpstream((_, res) =>
      json(
        res,
        422,
        { detail: "email taken" },
        { "x-request-id": "req_9", "idempotent-replayed": "true" },
      ),
    );
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const result = await client.POST("/customers", {
      body: { customer_type: "Person", email: "a@example.com" },
    });
    expect(result.error?.message).toBe(
      "createCustomer failed with HTTP 422: email taken (request id req_9, replayed)",
    );
    expect(result.error).toMatchObject({ requestId: "req_9", replayed: true });
    expect(result).toMatchObject({ requestId: "req_9", replayed: true });
  });
});

describe("a result's request id and replay flag", () => {
  it("come from x-request-id (or request-id) and Idempotent-Replayed", async () => {
    const upstream = await startUpstream((arrival, res) =>
      arrival.method === "POST"
        ? json(res, 200, { id: "c1" }, { "request-id": "req_b", "idempotent-replayed": "true" })
        : json(res, 200, { items: [] }, { "x-request-id": "req_a" }),
    );
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const listed = await client.GET("/documents");
    expect(listed).toMatchObject({ requestId: "req_a", replayed: false, data: { items: [] } });
    const created = await client.POST("/customers", {
      body: { customer_type: "Person", email: "a@example.com" },
    });
    expect(created).toMatchObject({ requestId: "req_b", replayed: true, data: { id: "c1" } });
  });

  it("are undefined and false when the answer has neither header", async () => {
    const upstream = await startUpstream((_, res) => json(res, 200, { items: [] }));
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    expect(await client.GET("/documents")).toMatchObject({ requestId: undefined, replayed: false });
  });
});

describe("a PaymentsConnectionError's message", () => {
  it("names the origin (scheme, host, port) and the system error code", async () => {
    const baseUrl = await refusedBaseUrl();
    const { port } = new URL(baseUrl);
    const { client } = testClient({ baseUrl: `${baseUrl}/api`, maxRetries: 0 });
    const failure = await client.GET("/documents").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsConnectionError);
    expect((failure as Error).message).toMatch(
      new RegExp(
        `^listDocuments could not reach http://127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\): fetch failed`,
      ),
    );
    for (const text of renderings(failure)) expect(text).not.toContain(API_KEY);
  });

  it("names the default port, and a code from an AggregateError's causes", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED ::1:443"), {
      code: "ECONNREFUSED",
    });
    const { client } = testClient({
      baseUrl: "https://api.example.com/v1",
      maxRetries: 0,
      fetch: () =>
        Promise.reject(new TypeError("fetch failed", { cause: new AggregateError([refused]) })),
    });
    const failure = await client.GET("/documents").catch((e: unknown) => e);
    expect((failure as Error).message).toBe(
      "listDocuments could not reach https://api.example.com:443 (ECONNREFUSED): fetch failed: connect ECONNREFUSED ::1:443",
    );
  });

  it("says what it can when the platform gives no code, and never the key", async () => {
    const { client } = testClient({
      baseUrl: "http://127.0.0.1:1",
      maxRetries: 0,
      fetch: () => Promise.reject(new TypeError(`Failed to fetch ${API_KEY}`)),
    });
    const failure = await client.GET("/documents").catch((e: unknown) => e);
    expect((failure as Error).message).toBe(
      "listDocuments could not reach http://127.0.0.1:1: Failed to fetch [redacted]",
    );
    for (const text of renderings(failure)) expect(text).not.toContain(API_KEY);
  });
});

describe("a PaymentsTimeoutError's message", () => {
  it("says the client's timeoutMs fired waiting for the response, on how many attempts", async () => {
    const upstream = await startUpstream(() => {});
    const { client } = testClient({ baseUrl: upstream.baseUrl, timeoutMs: 20, maxRetries: 1 });
    const failure = await client.GET("/documents").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsTimeoutError);
    expect((failure as Error).message).toBe(
      `listDocuments timed out after 20 ms waiting for the response from ${upstream.baseUrl} (the client's timeoutMs, per attempt; 2 attempts)`,
    );
    expect(failure).toMatchObject({ timeoutMs: 20, operation: "listDocuments" });
  });

  it("says the call's timeoutMs fired while the body was read", async () => {
    // The headers come at once and the body never ends, so the limit fires while it is read.
    const stalled = () =>
      Promise.resolve(
        new Response(
          new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode("[")) }),
          {
            headers: { "content-type": "application/json" },
          },
        ),
      );
    const { client } = testClient({
      baseUrl: "https://api.example.com",
      timeoutMs: 60_000,
      fetch: stalled,
    });
    const failure = await client
      .GET("/documents", { timeoutMs: 50, maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsTimeoutError);
    expect((failure as Error).message).toBe(
      "listDocuments timed out after 50 ms reading the response body from https://api.example.com:443 (the call's timeoutMs, per attempt; 1 attempt)",
    );
  });
});

describe("the error classes built by hand", () => {
  it("keep their short messages without the details the client adds", () => {
    expect(new PaymentsTimeoutError("op", 5).message).toBe("op timed out after 5 ms");
    expect(
      new PaymentsConnectionError("op", new TypeError("fetch failed"), undefined).message,
    ).toBe("op could not reach the API: fetch failed");
    expect(new PaymentsApiError({ status: 500, body: undefined, operation: "op" }).message).toBe(
      "op failed with HTTP 500",
    );
  });
});
