// A request the sandbox answered is not validated again when it comes again (engine/verdict-memo.ts):
// any request that differs from it, in its target or in any header, is still validated.

import { API_KEY } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

let sandbox: HttpSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const get = async (path: string, headers: Record<string, string>) => {
  const answer = await fetch(sandbox.url + path, { headers, signal: AbortSignal.timeout(10_000) });
  return { status: answer.status, headers: answer.headers, text: await answer.text() };
};

describe("remembered verdicts", () => {
  it("still refuses what differs from a request answered before", async () => {
    const valid = { "X-API-Key": API_KEY };
    for (let round = 0; round < 2; round++) {
      expect((await get("/customers?page_size=10", valid)).status).toBe(200);
    }
    expect((await get("/customers?page_size=10", {})).status).toBe(401);
    const tooLarge = await get("/customers?page_size=1000", valid);
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.text).toContain("page_size");
    const badScope = await get("/customers?page_size=10", {
      ...valid,
      "X-SUB-PARTNER-ID": "not-a-uuid",
    });
    expect(badScope.status).toBe(422);
  });

  it("answers a repeated request with its own request id", async () => {
    const headers = { "X-API-Key": API_KEY };
    const ids = new Set<unknown>();
    for (const id of ["first-id", "second-id"]) {
      const answer = await get("/customers?page_size=3", { ...headers, "X-Request-Id": id });
      expect(answer.status).toBe(200);
      ids.add(answer.headers.get("x-request-id"));
    }
    expect(ids).toEqual(new Set(["first-id", "second-id"]));
  });
});
