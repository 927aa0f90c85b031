import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  createPaymentsClient,
  PaymentsApiError,
  PaymentsConnectionError,
  PaymentsError,
  PaymentsResponseError,
  PaymentsTimeoutError,
} from "../src/index.js";
import { API_KEY, json, refusedBaseUrl, startUpstream, testClient } from "./upstream.js";

/** Everything a leaked key could hide in. */
function renderings(error: unknown): string[] {
  return [
    String(error),
    (error as Error).message,
    JSON.stringify(error),
    inspect(error, { depth: 10 }),
  ];
}

describe("construction", () => {
  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["blank", "  "],
  ])("rejects a %s apiKey naming the option", (_, apiKey) => {
    expect(() =>
      createPaymentsClient({ apiKey: apiKey as string, baseUrl: "http://127.0.0.1:1" }),
    ).toThrow("apiKey must be a non-empty string");
  });

  it("rejects a missing baseUrl and bad numbers, naming the option and the rule", () => {
    const ok = { apiKey: API_KEY, baseUrl: "http://127.0.0.1:1" };
    expect(() => createPaymentsClient({ apiKey: API_KEY } as never)).toThrow(
      "baseUrl must be an absolute http: or https: URL",
    );
    expect(() => createPaymentsClient({ ...ok, timeoutMs: 0 })).toThrow(/^timeoutMs must be/);
    expect(() => createPaymentsClient({ ...ok, maxRetries: 1.5 })).toThrow(
      "maxRetries must be a whole number of at least 0",
    );
    expect(() => createPaymentsClient({ ...ok, subPartnerId: "" })).toThrow(
      "subPartnerId must be a non-empty string",
    );
  });
});

describe("construction refuses what could not be sent", () => {
  it.each([
    ["a CR/LF", `${API_KEY}\r\nX-Injected: 1`],
    ["a trailing newline", `${API_KEY}\n`],
    ["a NUL", `${API_KEY}\u0000`],
    ["a character outside Latin-1 (a smart quote)", `\u201c${API_KEY}\u201d`],
    ["a leading space", ` ${API_KEY}`],
  ])("an apiKey with %s, naming apiKey but never its value", (_, apiKey) => {
    let thrown: unknown;
    try {
      createPaymentsClient({ apiKey, baseUrl: "http://127.0.0.1:1" });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toMatch(/^apiKey must be a valid HTTP header value/);
    for (const text of renderings(thrown)) expect(text).not.toContain(API_KEY);
  });

  it.each([
    "not a url",
    "ftp://files.example.com/api",
    "http//host",
    "/api",
    "https://api.example.com/v1?version=2",
    "https://api.example.com/v1#docs",
    "https://partner:hunter2@api.example.com/v1",
  ])(
    "a baseUrl that is not an absolute http(s) URL, or has credentials, a query or a fragment: %s",
    (baseUrl) => {
      expect(() => createPaymentsClient({ apiKey: API_KEY, baseUrl })).toThrow(
        /^baseUrl must be an absolute http: or https: URL/,
      );
    },
  );

  it("accepts a key with inner spaces and Latin-1 letters, and https and http URLs", () => {
    for (const baseUrl of ["https://api.example.com/v1", "http://127.0.0.1:4010"]) {
      expect(() => createPaymentsClient({ apiKey: "key with sp\u00e4ce", baseUrl })).not.toThrow();
    }
  });
});

describe("only PaymentsError subclasses", () => {
  it("a 2xx whose body is not JSON is a PaymentsResponseError with status and idempotency key", async () => {
    const upstream = await startUpstream((_, res) => {
      res.writeHead(200, { "content-type": "text/html" }).end("<html>Maintenance</html>");
    });
    const { client, attempts } = testClient({ baseUrl: upstream.baseUrl });
    const failure = await client
      .POST("/customers", { body: { customer_type: "Person", email: "a@example.com" } })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsResponseError);
    expect(failure).toBeInstanceOf(PaymentsError);
    expect(failure).toMatchObject({
      status: 200,
      operation: "createCustomer",
      idempotencyKey: attempts[0]?.headers.get("IDEMPOTENCY-KEY"),
    });
    // The request arrived: it is not sent again.
    expect(upstream.arrivals).toHaveLength(1);
  });

  it.each([
    ["with Content-Length 0", { "content-length": "0" }],
    ["chunked", { "transfer-encoding": "chunked" }],
  ])("a 2xx with an empty body (%s) is a PaymentsResponseError", async (_, headers) => {
    const upstream = await startUpstream((_, res) => {
      res.writeHead(200, { "content-type": "application/json", ...headers }).end();
    });
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const failure = await client.documents.list().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsResponseError);
    expect(failure).toMatchObject({ status: 200, operation: "listDocuments" });
    expect(upstream.arrivals).toHaveLength(1);
  });

  it("an error body nested 20,000 levels deep is a PaymentsApiError", async () => {
    const deep = `${"[".repeat(20_000)}"${API_KEY}"${"]".repeat(20_000)}`;
    const upstream = await startUpstream((_, res) => {
      res.writeHead(400, { "content-type": "application/json" }).end(deep);
    });
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const { error } = await client.GET("/documents");
    expect(error).toBeInstanceOf(PaymentsApiError);
    let innermost: unknown = error?.body;
    while (Array.isArray(innermost)) innermost = innermost[0];
    expect(innermost).toBe("[redacted]");
  });
});

describe("auth", () => {
  it("sends X-API-Key on every request and uses the given fetch", async () => {
    const upstream = await startUpstream((_, res) => json(res, 200, { items: [] }));
    const seen: string[] = [];
    const client = createPaymentsClient({
      apiKey: API_KEY,
      baseUrl: upstream.baseUrl,
      fetch: (input) => {
        seen.push(input.url);
        return fetch(input);
      },
    });
    await client.GET("/documents");
    await client.POST("/customers", { body: { customer_type: "Person", email: "a@example.com" } });
    expect(upstream.arrivals.map((a) => a.headers["x-api-key"])).toEqual([API_KEY, API_KEY]);
    expect(seen).toEqual([`${upstream.baseUrl}/documents`, `${upstream.baseUrl}/customers`]);
  });
});

describe("PaymentsApiError", () => {
  it("carries status, parsed JSON body, operation, idempotency key and request id", async () => {
    const upstream = await startUpstream((_, res) =>
      json(res, 422, { message: "email is invalid" }, { "x-request-id": "req_123" }),
    );
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const { data, error, response } = await client.POST("/customers", {
      body: { customer_type: "Person", email: "nope" },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(422);
    expect(error).toBeInstanceOf(PaymentsApiError);
    expect(error).toMatchObject({
      name: "PaymentsApiError",
      status: 422,
      body: { message: "email is invalid" },
      operation: "createCustomer",
      idempotencyKey: upstream.arrivals[0]?.headers["idempotency-key"],
      requestId: "req_123",
    });
    expect(error?.message).toBe(
      "createCustomer failed with HTTP 422: email is invalid (request id req_123)",
    );
  });

  it("keeps a body that is not JSON as text", async () => {
    const upstream = await startUpstream((_, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<h1>Bad gateway</h1>");
    });
    const { client } = testClient({ baseUrl: upstream.baseUrl, maxRetries: 0 });
    const { error } = await client.GET("/documents");
    expect(error?.body).toBe("<h1>Bad gateway</h1>");
    expect(error?.status).toBe(502);
    expect(error?.requestId).toBeUndefined();
  });

  it("keeps an empty error body as undefined", async () => {
    const upstream = await startUpstream((_, res) => {
      res.writeHead(404, { "content-length": "0" });
      res.end();
    });
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const { error } = await client.GET("/documents");
    expect(error).toMatchObject({ status: 404, body: undefined, operation: "listDocuments" });
  });
});

describe("the API key never leaks", () => {
  it("not from an API error, even when the body echoes the key", async () => {
    const upstream = await startUpstream((arrival, res) =>
      json(res, 401, { message: `bad key ${arrival.headers["x-api-key"]}` }),
    );
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const { error } = await client.GET("/documents");
    expect(error?.body).toEqual({ message: "bad key [redacted]" });
    for (const text of renderings(error)) expect(text).not.toContain(API_KEY);
  });

  it("not from a request id or a body that echo it", async () => {
    const upstream = await startUpstream((arrival, res) => {
      const key = String(arrival.headers["x-api-key"]);
      json(
        res,
        500,
        { detail: key, [key]: [key], nested: { deeper: `a ${key} b` } },
        {
          "x-request-id": `req-${key}`,
        },
      );
    });
    const { client } = testClient({ baseUrl: upstream.baseUrl, maxRetries: 0 });
    const { error } = await client.GET("/documents");
    expect(error?.requestId).toBe("req-[redacted]");
    expect(error?.body).toEqual({
      detail: "[redacted]",
      "[redacted]": ["[redacted]"],
      nested: { deeper: "a [redacted] b" },
    });
    for (const text of renderings(error)) expect(text).not.toContain(API_KEY);
  });

  it.each([
    ["JSON with `/` escaped", (key: string) => key.replaceAll("/", "\\/")],
    ["URL-encoded", encodeURIComponent],
  ])("not when the body echoes a base64 key %s", async (_, echo) => {
    const apiKey = "sk_live_Zm9v/YmFy+YmF6=";
    const upstream = await startUpstream((arrival, res) => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(`{"message":"bad key ${echo(String(arrival.headers["x-api-key"]))}"}`);
    });
    const { client } = testClient({ baseUrl: upstream.baseUrl, apiKey });
    const { error } = await client.GET("/documents");
    expect(error?.message).toContain("bad key [redacted]");
    for (const text of renderings(error)) {
      expect(text).not.toContain(apiKey);
      expect(text).not.toContain(encodeURIComponent(apiKey));
    }
  });

  it.each(["0", "test"])(
    "a short key %j only where it stands as a word, in the body's strings",
    async (apiKey) => {
      const upstream = await startUpstream((_, res) =>
        json(res, 404, {
          status: 404,
          detail: `key ${apiKey} for qa-${apiKey}x@${apiKey}0.example`,
        }),
      );
      const { client } = testClient({ baseUrl: upstream.baseUrl, apiKey, maxRetries: 0 });
      const { error } = await client.GET("/documents");
      expect(error?.body).toEqual({
        status: 404,
        detail: `key [redacted] for qa-${apiKey}x@${apiKey}0.example`,
      });
    },
  );

  it("not from the cause of a connection error", async () => {
    const { client } = testClient({
      baseUrl: "http://127.0.0.1:1",
      maxRetries: 0,
      fetch: () => Promise.reject(new TypeError(`socket said ${API_KEY}`)),
    });
    const failure = await client.GET("/documents").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsConnectionError);
    expect(String((failure as Error).cause)).toContain("[redacted]");
    for (const text of renderings(failure)) expect(text).not.toContain(API_KEY);
  });

  it("not from a connection error", async () => {
    const { client } = testClient({ baseUrl: await refusedBaseUrl(), maxRetries: 0 });
    const failure = await client.GET("/documents").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsConnectionError);
    for (const text of renderings(failure)) expect(text).not.toContain(API_KEY);
  });

  it("not to another host a redirect points to", async () => {
    const elsewhere = await startUpstream((_, res) => json(res, 200, { items: [] }));
    const upstream = await startUpstream((_, res) => {
      res.writeHead(302, { location: `${elsewhere.baseUrl}/documents` }).end();
    });
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const { error } = await client.GET("/documents");
    expect(error).toBeInstanceOf(PaymentsApiError);
    expect(error).toMatchObject({ status: 302, operation: "listDocuments" });
    expect(error?.message).toBe("listDocuments failed with HTTP 302: a redirect, not followed");
    expect(elsewhere.arrivals).toHaveLength(0);
  });

  it("nor in a browser, whose redirect is an opaque one of status 0: said as a redirect, once", async () => {
    // What a browser's fetch answers a redirect with under `redirect: "manual"`.
    const opaqueRedirect = () => {
      const response = new Response(null, { status: 302 });
      Object.defineProperties(response, {
        type: { value: "opaqueredirect" },
        status: { value: 0 },
        statusText: { value: "" },
      });
      return response;
    };
    const { client, attempts } = testClient({
      baseUrl: "https://api.example.com",
      fetch: async () => opaqueRedirect(),
    });
    const { error } = await client.GET("/documents");
    expect(error).toBeInstanceOf(PaymentsApiError);
    expect(error).toMatchObject({ status: 0, operation: "listDocuments" });
    expect(error?.message).toBe("listDocuments failed with HTTP 0: a redirect, not followed");
    expect(attempts).toHaveLength(1);
    await expect(client.documents.list()).rejects.toThrow(
      "listDocuments failed with HTTP 0: a redirect, not followed",
    );
  });

  it("not from the client object", () => {
    const client = createPaymentsClient({ apiKey: API_KEY, baseUrl: "http://127.0.0.1:1" });
    expect(inspect(client, { depth: 5 })).not.toContain(API_KEY);
    expect(JSON.stringify(client)).not.toContain(API_KEY);
  });
});

describe("PaymentsTimeoutError", () => {
  it("is thrown when an attempt exceeds timeoutMs", async () => {
    const upstream = await startUpstream(() => {});
    const { client } = testClient({ baseUrl: upstream.baseUrl, timeoutMs: 20, maxRetries: 0 });
    const failure = await client
      .POST("/customers", { body: { customer_type: "Person", email: "a@example.com" } })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsTimeoutError);
    expect(failure).toMatchObject({
      operation: "createCustomer",
      timeoutMs: 20,
      // Under load the timeout may fire before the request reaches the upstream, so the key is
      // checked for its shape here; the PaymentsApiError test above checks that it is the key sent.
      idempotencyKey: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
    });
    for (const text of renderings(failure)) expect(text).not.toContain(API_KEY);
  });
});
