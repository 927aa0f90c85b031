import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { bodilessKey, readRequestKey } from "../../src/http/request-key.js";

/** A request as Node reads it: its raw headers, and the lower-case map Node derives from them. */
function incoming(method: string, url: string, raw: string[]): IncomingMessage {
  const headers: Record<string, string> = {};
  for (let index = 0; index < raw.length; index += 2) {
    headers[String(raw[index]).toLowerCase()] = String(raw[index + 1]);
  }
  return { method, url, rawHeaders: raw, headers } as unknown as IncomingMessage;
}

const get = (raw: string[], url = "/customers?page_size=10") => incoming("GET", url, raw);

describe("bodilessKey", () => {
  it("is the same for requests that differ only in their request id", () => {
    const key = bodilessKey(get(["X-API-Key", "k", "X-Request-Id", "a"]));
    expect(key).toBeDefined();
    expect(bodilessKey(get(["X-API-Key", "k", "x-request-id", "b"]))).toBe(key);
    expect(bodilessKey(get(["X-API-Key", "k"]))).toBe(key);
  });

  it("tells apart the method, the target and every other header's name and value", () => {
    const base = bodilessKey(get(["X-API-Key", "k"]));
    const others = [
      incoming("DELETE", "/customers?page_size=10", ["X-API-Key", "k"]),
      get(["X-API-Key", "k"], "/customers?page_size=11"),
      get(["X-API-Key", "other"]),
      get(["X-API-Key", "k", "Prefer", "code=404"]),
      get(["X-API-Key", "k", "X-SUB-PARTNER-ID", "s"]),
      get([]),
    ];
    const keys = new Set([base, ...others.map(bodilessKey)]);
    expect(keys.size).toBe(others.length + 1);
  });

  it("is undefined for a request that may have a body", () => {
    expect(bodilessKey(get(["Content-Length", "2"]))).toBeUndefined();
    expect(bodilessKey(get(["Transfer-Encoding", "chunked"]))).toBeUndefined();
    expect(bodilessKey(get(["Content-Length", "0"]))).toBeDefined();
  });
});

describe("readRequestKey", () => {
  const post = (raw: string[]) => incoming("POST", "/customers", raw);

  it("is the same for requests that differ only in their request id", () => {
    const key = readRequestKey(post(["X-API-Key", "k", "X-Request-Id", "a"]), '{"a":1}');
    expect(key).toBeDefined();
    expect(readRequestKey(post(["X-API-Key", "k"]), '{"a":1}')).toBe(key);
  });

  it("tells apart the headers and the body", () => {
    const keys = new Set([
      readRequestKey(post(["X-API-Key", "k"]), '{"a":1}'),
      readRequestKey(post(["X-API-Key", "k"]), '{"a":2}'),
      readRequestKey(post(["X-API-Key", "other"]), '{"a":1}'),
      readRequestKey(post(["X-API-Key", "k", "Idempotency-Key", "i"]), '{"a":1}'),
      readRequestKey(post(["X-API-Key", "k"]), ""),
    ]);
    expect(keys.size).toBe(5);
  });

  it("is undefined for a body longer than 8 KiB", () => {
    expect(readRequestKey(post([]), "x".repeat(8 * 1024))).toBeDefined();
    expect(readRequestKey(post([]), "x".repeat(8 * 1024 + 1))).toBeUndefined();
  });
});
