import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  createPaymentsClient,
  PaymentsApiError,
  PaymentsConnectionError,
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
      "baseUrl must be a non-empty string",
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

  it("not from a connection error", async () => {
    const { client } = testClient({ baseUrl: await refusedBaseUrl(), maxRetries: 0 });
    const failure = await client.GET("/documents").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsConnectionError);
    for (const text of renderings(failure)) expect(text).not.toContain(API_KEY);
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
