// undici follows a Request's signal through a weak reference. These calls run with garbage
// collections forced while they are under way: every timeout and every abort must still end
// every call, on every attempt, whatever the collector took.
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { createPaymentsClient, PaymentsTimeoutError } from "../src/index.js";
import { startUpstream, whenClosed } from "./upstream.js";

const gc = (globalThis as { gc?: () => void }).gc;

/** Headers at once, then a body that never comes. */
function stallBody(res: ServerResponse) {
  res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
  res.write('{"items":[');
}

/** Forces a collection every few milliseconds until `done` settles. */
async function collectingUntil<T>(done: Promise<T>): Promise<T> {
  let settled = false;
  const settle = done.finally(() => {
    settled = true;
  });
  while (!settled) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return settle;
}

describe("under forced garbage collection", () => {
  it("runs with --expose-gc, so the collections really happen", () => {
    expect(gc).toBeTypeOf("function");
  });

  it("times out every call and every attempt: 500 with Retry-After 0, then stalled bodies", async () => {
    // Each call is told apart by its page_size: its first attempt gets the 500, the others stall.
    const seen = new Set<string>();
    const upstream = await startUpstream((arrival, res) => {
      const call = new URL(arrival.url, "http://x").searchParams.get("page_size") ?? "";
      if (seen.has(call)) return stallBody(res);
      seen.add(call);
      res.writeHead(500, { "retry-after": "0", "content-type": "application/json" }).end("{}");
    });
    let sent = 0;
    const client = createPaymentsClient({
      apiKey: "gc-test-key",
      baseUrl: upstream.baseUrl,
      timeoutMs: 200,
      maxRetries: 2,
      // Counts attempts without holding on to their Requests, as the default fetch would.
      fetch: (request) => {
        sent++;
        return globalThis.fetch(request);
      },
    });
    const calls = Array.from({ length: 20 }, (_, i) =>
      client.GET("/documents", { params: { query: { page_size: i + 1 } } }).then(
        () => "resolved",
        (error: unknown) => error,
      ),
    );
    const outcomes = await collectingUntil(Promise.all(calls));
    for (const outcome of outcomes) expect(outcome).toBeInstanceOf(PaymentsTimeoutError);
    // Every call made all three attempts: the 500, then two that timed out.
    expect(sent).toBe(60);
  });

  it("closes every timed-out connection of the platform's fetch", async () => {
    let closed = 0;
    const upstream = await startUpstream((_, res) => {
      whenClosed(res, () => closed++);
      stallBody(res);
    });
    const client = createPaymentsClient({
      apiKey: "gc-test-key",
      baseUrl: upstream.baseUrl,
      timeoutMs: 200,
      maxRetries: 1,
    });
    const calls = Array.from({ length: 10 }, () =>
      client.GET("/documents").catch((error: unknown) => error),
    );
    const outcomes = await collectingUntil(Promise.all(calls));
    for (const outcome of outcomes) expect(outcome).toBeInstanceOf(PaymentsTimeoutError);
    // Each abort reached undici's fetch, whatever the collector took: no connection stays open.
    expect(upstream.arrivals.length).toBeGreaterThan(0);
    await collectingUntil(expect.poll(() => upstream.arrivals.length - closed).toBe(0));
  });

  it("ends every call when the caller aborts while the body is read", async () => {
    const upstream = await startUpstream((_, res) => stallBody(res));
    const client = createPaymentsClient({
      apiKey: "gc-test-key",
      baseUrl: upstream.baseUrl,
      timeoutMs: 600_000,
    });
    const controller = new AbortController();
    const calls = Array.from({ length: 10 }, () =>
      client.GET("/documents", { signal: controller.signal }).catch((error: unknown) => error),
    );
    // Abort once every request has arrived and its body stalls.
    const aborted = (async () => {
      await expect.poll(() => upstream.arrivals.length, { interval: 5 }).toBe(10);
      gc?.();
      controller.abort();
    })();
    const outcomes = await collectingUntil(Promise.all(calls));
    await aborted;
    for (const outcome of outcomes) expect(outcome).toMatchObject({ name: "AbortError" });
  });
});
