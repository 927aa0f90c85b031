import { describe, expect, it } from "vitest";
import { createClientOn } from "../src/client.js";
import {
  createPaymentsClient,
  PaymentsConnectionError,
  PaymentsResponseError,
  PaymentsTimeoutError,
} from "../src/index.js";
import { sleep } from "../src/retry-policy.js";
import {
  API_KEY,
  json,
  NOW,
  refusedBaseUrl,
  startUpstream,
  testClient,
  whenClosed,
} from "./upstream.js";

const customer = { customer_type: "Person", email: "a@example.com" } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Fails the first `failures` requests with `status` (and headers), then answers 200. */
function failThenSucceed(failures: number, status: number, headers = {}) {
  return startUpstream((_, res, n) =>
    n <= failures
      ? json(res, status, { message: "try again" }, headers)
      : json(res, 200, { id: "c1" }),
  );
}

describe("idempotency keys", () => {
  it("generates a UUID per POST call and reuses it on every retry of that call", async () => {
    const upstream = await failThenSucceed(2, 503);
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const { data } = await client.POST("/customers", { body: customer });
    await client.POST("/customers", { body: customer });
    const keys = upstream.arrivals.map((a) => a.headers["idempotency-key"]);
    expect(data).toEqual({ id: "c1" });
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(UUID);
    expect(keys.slice(0, 3)).toEqual([keys[0], keys[0], keys[0]]);
    expect(keys[3]).toMatch(UUID);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it("uses a caller's key as is, on every attempt", async () => {
    const upstream = await failThenSucceed(1, 500);
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    await client.POST("/customers", {
      body: customer,
      params: { header: { "IDEMPOTENCY-KEY": "my-own-key" } },
    });
    expect(upstream.arrivals.map((a) => a.headers["idempotency-key"])).toEqual([
      "my-own-key",
      "my-own-key",
    ]);
  });

  it("is not sent on GET or PATCH", async () => {
    const upstream = await startUpstream((_, res) => json(res, 200, {}));
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    await client.GET("/documents");
    await client.PATCH("/webhooks/{id}", {
      params: { path: { id: "w1" } },
      body: { url: "https://x" },
    });
    expect(upstream.arrivals.map((a) => a.headers["idempotency-key"])).toEqual([
      undefined,
      undefined,
    ]);
  });
});

describe("retries", () => {
  it.each([503, 500, 429, 408])(
    "retries %i with exponential backoff and full jitter",
    async (status) => {
      const upstream = await failThenSucceed(2, status);
      const { client, waits } = testClient({ baseUrl: upstream.baseUrl });
      const { data, error } = await client.GET("/documents");
      expect(error).toBeUndefined();
      expect(data).toEqual({ id: "c1" });
      expect(upstream.arrivals).toHaveLength(3);
      // random() is 0.5: half of 500 ms, then half of 1000 ms.
      expect(waits).toEqual([250, 500]);
    },
  );

  it.each([400, 401, 404, 409, 422])("does not retry %i", async (status) => {
    const upstream = await failThenSucceed(1, status);
    const { client, waits } = testClient({ baseUrl: upstream.baseUrl });
    const { error } = await client.GET("/documents");
    expect(error?.status).toBe(status);
    expect(upstream.arrivals).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("gives up after maxRetries and returns the last error", async () => {
    const upstream = await failThenSucceed(10, 503);
    const { client } = testClient({ baseUrl: upstream.baseUrl, maxRetries: 3 });
    const { error } = await client.GET("/documents");
    expect(error?.status).toBe(503);
    expect(upstream.arrivals).toHaveLength(4);
  });

  it("takes maxRetries per call", async () => {
    const upstream = await failThenSucceed(10, 503);
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    await client.GET("/documents", { maxRetries: 0 });
    expect(upstream.arrivals).toHaveLength(1);
  });

  it("honours Retry-After in seconds", async () => {
    const upstream = await failThenSucceed(1, 429, { "retry-after": "3" });
    const { client, waits } = testClient({ baseUrl: upstream.baseUrl });
    await client.GET("/documents");
    expect(waits).toEqual([3000]);
    expect(upstream.arrivals).toHaveLength(2);
  });

  it("honours Retry-After as an HTTP date", async () => {
    const at = new Date(NOW + 7000).toUTCString();
    const upstream = await failThenSucceed(1, 503, { "retry-after": at });
    const { client, waits } = testClient({ baseUrl: upstream.baseUrl });
    await client.GET("/documents");
    expect(waits).toEqual([7000]);
  });

  it.each(["1.5", "-1", "1 2", "0.5 s"])(
    "backs off as usual after a Retry-After that is neither seconds nor an HTTP date (%s)",
    async (value) => {
      // Date.parse reads each of these as some date long past: a wait of 0, a retry at once.
      const upstream = await failThenSucceed(1, 429, { "retry-after": value });
      const { client, waits } = testClient({ baseUrl: upstream.baseUrl });
      await client.GET("/documents");
      expect(waits).toEqual([250]);
    },
  );

  it("returns the response instead of waiting more than a minute", async () => {
    const upstream = await failThenSucceed(1, 429, { "retry-after": "3600" });
    const { client, waits } = testClient({ baseUrl: upstream.baseUrl });
    const { error, response } = await client.GET("/documents");
    expect(error?.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("3600");
    expect(waits).toEqual([]);
  });

  it("retries a dropped connection and resends the same body", async () => {
    const upstream = await startUpstream((_, res, n) =>
      n === 1 ? res.socket?.destroy() : json(res, 200, { id: "c1" }),
    );
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const { data } = await client.POST("/customers", { body: customer });
    expect(data).toEqual({ id: "c1" });
    expect(upstream.arrivals.map((a) => JSON.parse(a.body))).toEqual([customer, customer]);
    expect(upstream.arrivals[1]?.headers["idempotency-key"]).toBe(
      upstream.arrivals[0]?.headers["idempotency-key"],
    );
  });

  it("throws PaymentsConnectionError when the connection is refused", async () => {
    const { client, waits } = testClient({ baseUrl: await refusedBaseUrl() });
    const failure = await client.GET("/documents").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsConnectionError);
    expect(failure).toMatchObject({ operation: "listDocuments" });
    expect((failure as Error).cause).toBeInstanceOf(Error);
    expect(waits).toHaveLength(2);
  });
});

describe("timeouts", () => {
  it("bounds each attempt, retries, then throws PaymentsTimeoutError", async () => {
    const upstream = await startUpstream(() => {});
    const { client, attempts } = testClient({
      baseUrl: upstream.baseUrl,
      timeoutMs: 20,
      maxRetries: 1,
    });
    const failure = await client.GET("/documents").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsTimeoutError);
    expect(failure).toMatchObject({ operation: "listDocuments", timeoutMs: 20 });
    expect(attempts).toHaveLength(2);
  });

  it("covers reading the body: a stalled body times out", async () => {
    const upstream = await startUpstream((_, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"items":[');
    });
    const { client } = testClient({ baseUrl: upstream.baseUrl, timeoutMs: 50, maxRetries: 0 });
    const failure = await client.GET("/documents").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsTimeoutError);
    expect(failure).toMatchObject({ operation: "listDocuments", timeoutMs: 50 });
  });

  it("retries a GET whose body stalled, like any other timeout", async () => {
    const upstream = await startUpstream((_, res, n) => {
      if (n > 1) return json(res, 200, { items: [] });
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"items":[');
    });
    const { client, attempts } = testClient({ baseUrl: upstream.baseUrl, timeoutMs: 300 });
    const { data } = await client.GET("/documents");
    expect(data).toEqual({ items: [] });
    expect(attempts).toHaveLength(2);
  });

  it("retries a POST whose body stalled with the same IDEMPOTENCY-KEY, then gives up", async () => {
    const upstream = await startUpstream((_, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"id":');
    });
    const { client, attempts } = testClient({
      baseUrl: upstream.baseUrl,
      timeoutMs: 300,
      maxRetries: 2,
    });
    const failure = await client.POST("/customers", { body: customer }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsTimeoutError);
    expect(attempts).toHaveLength(3);
    const keys = new Set(attempts.map((request) => request.headers.get("IDEMPOTENCY-KEY")));
    expect(keys.size).toBe(1);
    expect(failure).toMatchObject({ idempotencyKey: [...keys][0] });
  });

  it.each([
    [200, "gzip", "not gzip at all"],
    [503, "gzip", "not gzip at all"],
    [200, "br", "not brotli either"],
  ])(
    "does not retry an HTTP %i whose body its Content-Encoding (%s) does not decode",
    async (status, encoding, bytes) => {
      // The answer arrived whole: it is no network failure, and the next answer would be the same.
      const upstream = await startUpstream((_, res) => {
        res.writeHead(status, { "content-type": "application/json", "content-encoding": encoding });
        res.end(bytes);
      });
      const { client, attempts } = testClient({ baseUrl: upstream.baseUrl });
      const failure = await client.GET("/documents").catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(PaymentsResponseError);
      expect(failure).toMatchObject({ operation: "listDocuments", status });
      expect((failure as Error).message).toMatch(
        new RegExp(
          `^listDocuments got HTTP ${status} with a body that could not be decoded \\((Z_DATA_ERROR|ERR_\\w+)\\): terminated: `,
        ),
      );
      expect(attempts).toHaveLength(1);
    },
  );

  it("reports a connection lost while reading the body as PaymentsConnectionError", async () => {
    const upstream = await startUpstream((_, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"items":[', () => res.socket?.destroy());
    });
    const { client } = testClient({ baseUrl: upstream.baseUrl, maxRetries: 0 });
    const failure = await client.GET("/documents").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsConnectionError);
    expect(failure).toMatchObject({ operation: "listDocuments" });
  });

  it("ends an attempt whose custom fetch never hears of the timeout", async () => {
    const { client, attempts } = testClient({
      baseUrl: "http://127.0.0.1:9",
      fetch: () => new Promise<Response>(() => {}),
      timeoutMs: 20,
      maxRetries: 1,
    });
    const failure = await client.GET("/documents").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsTimeoutError);
    expect(attempts).toHaveLength(2);
  });

  it("takes timeoutMs per call", async () => {
    const upstream = await startUpstream(() => undefined);
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    const failure = await client
      .GET("/documents", { timeoutMs: 250, maxRetries: 0 })
      .catch((e: unknown) => e);
    // The error names the bound that cut the call: the per-call one, not the client's 30 s default.
    expect(failure).toBeInstanceOf(PaymentsTimeoutError);
    expect(failure).toMatchObject({ timeoutMs: 250 });
    expect(upstream.arrivals).toHaveLength(1);
  });

  it("rejects a bad per-call timeoutMs naming it", async () => {
    const { client } = testClient({ baseUrl: "http://127.0.0.1:1" });
    await expect(client.GET("/documents", { timeoutMs: -1 })).rejects.toThrow(/^timeoutMs must be/);
  });
});

describe("the platform's fetch (no `fetch` option)", () => {
  /** Leaves each request without its answer (or, with `body`, its body) and counts the closed connections. */
  async function stallingUpstream(body: boolean) {
    let closed = 0;
    const upstream = await startUpstream((_, res) => {
      whenClosed(res, () => closed++);
      if (!body) return;
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"items":[');
    });
    return { upstream, closed: () => closed };
  }

  it.each([
    ["the response", false],
    ["the body", true],
  ])("times out a stalled attempt at %s and closes its connection", async (_, body) => {
    const { upstream, closed } = await stallingUpstream(body);
    const client = createPaymentsClient({
      apiKey: API_KEY,
      baseUrl: upstream.baseUrl,
      timeoutMs: 250,
      maxRetries: 1,
    });
    const failure = await client.GET("/documents").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaymentsTimeoutError);
    // The abort reached the fetch itself: every attempt that arrived had its connection closed.
    expect(upstream.arrivals.length).toBeGreaterThan(0);
    await expect.poll(() => upstream.arrivals.length - closed()).toBe(0);
  });

  it("closes the connection when the caller aborts", async () => {
    const { upstream, closed } = await stallingUpstream(false);
    const client = createPaymentsClient({ apiKey: API_KEY, baseUrl: upstream.baseUrl });
    const controller = new AbortController();
    const call = client.GET("/documents", { signal: controller.signal });
    await expect.poll(() => upstream.arrivals.length).toBe(1);
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: "AbortError" });
    await expect.poll(closed).toBe(1);
  });
});

describe("caller abort", () => {
  it("rejects with AbortError while waiting for the response, without retrying", async () => {
    const controller = new AbortController();
    const upstream = await startUpstream(() => controller.abort());
    const { client, waits } = testClient({ baseUrl: upstream.baseUrl });
    const failure = await client
      .GET("/documents", { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ name: "AbortError" });
    expect(failure).toBeInstanceOf(DOMException);
    expect(upstream.arrivals).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("rejects with AbortError during the wait before a retry, without retrying", async () => {
    const controller = new AbortController();
    const upstream = await startUpstream((_, res) => json(res, 503, {}));
    // The caller gives up while the client waits to retry; the wait is the real one.
    const client = createClientOn(
      {
        sleep: (ms, signal) => {
          controller.abort();
          return sleep(ms, signal);
        },
        random: () => 0.5,
        now: Date.now,
      },
      { apiKey: "k", baseUrl: upstream.baseUrl },
    );
    const failure = await client
      .GET("/documents", { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ name: "AbortError" });
    expect(upstream.arrivals).toHaveLength(1);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const upstream = await startUpstream((_, res) => json(res, 200, {}));
    const { client } = testClient({ baseUrl: upstream.baseUrl });
    await expect(client.GET("/documents", { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(upstream.arrivals).toHaveLength(0);
  });
});
