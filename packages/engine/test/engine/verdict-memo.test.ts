import { describe, expect, it } from "vitest";
import type { PrismEngine } from "../../src/engine/prism-engine.js";
import { type Verdict, VerdictMemo } from "../../src/engine/verdict-memo.js";

const engine = (name: string) => ({ name }) as unknown as PrismEngine;
const verdict = (path: string) =>
  ({
    request: { method: "GET", path, query: {}, headers: {}, body: undefined },
    routed: { params: {} },
  }) as unknown as Verdict;

describe("VerdictMemo", () => {
  it("gives back a verdict for its key and engine", () => {
    const memo = new VerdictMemo();
    const first = engine("first");
    memo.set(first, "GET /a", verdict("/a"));
    expect(memo.get(first, "GET /a")).toEqual(verdict("/a"));
    expect(memo.get(first, "GET /b")).toBeUndefined();
  });

  it("forgets every verdict when the engine changes (a reloaded spec)", () => {
    const memo = new VerdictMemo();
    const [before, after] = [engine("before"), engine("after")];
    memo.set(before, "GET /a", verdict("/a"));
    expect(memo.get(after, "GET /a")).toBeUndefined();
    memo.set(after, "GET /b", verdict("/b"));
    expect(memo.get(before, "GET /a")).toBeUndefined();
    expect(memo.get(after, "GET /b")).toEqual(verdict("/b"));
  });

  it("starts afresh rather than grow past its limit", () => {
    const memo = new VerdictMemo();
    const one = engine("one");
    for (let index = 0; index <= 1_000; index++) memo.set(one, `GET /${index}`, verdict("/"));
    expect(memo.get(one, "GET /0")).toBeUndefined();
    expect(memo.get(one, "GET /1000")).toBeDefined();
  });
});
