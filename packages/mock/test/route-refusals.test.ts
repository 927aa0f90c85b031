// A request the API has no operation for, where the test mode has one at the same path under
// /_sandbox/: the refusal names the test-mode route, and in the stateless mock how to get it.
import { specPath } from "@org/payments-spec";
import { API_KEY } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Problem, type RunningMock, startMock } from "../src/index.js";

let sandbox: RunningMock;
beforeAll(async () => {
  sandbox = await startMock({ spec: specPath, stateful: true });
});
afterAll(() => sandbox?.stop());

async function refusal(baseUrl: string, method: string, path: string) {
  const response = await fetch(baseUrl + path, {
    method,
    headers: {
      "X-API-Key": API_KEY,
      "IDEMPOTENCY-KEY": crypto.randomUUID(),
      "Content-Type": "application/json",
    },
    body: method === "GET" ? undefined : JSON.stringify({ url: "https://example.com/hook" }),
  });
  const problem = (await response.json()) as Problem;
  return { status: response.status, allow: response.headers.get("allow"), problem };
}

describe.each([
  ["the stateless mock", () => inject("mockUrl"), true],
  ["the sandbox", () => sandbox.url, false],
])("in %s", (_, url, stateless) => {
  it("POST /webhooks is a 405 that lists GET and names POST /_sandbox/webhooks", async () => {
    const { status, allow, problem } = await refusal(url(), "POST", "/webhooks");
    expect(status).toBe(405);
    expect(allow).toBe("GET");
    const [error] = problem.errors;
    expect(error?.message).toMatch(/^POST is not an operation of \/webhooks \(it has GET\); /);
    expect(error?.message).toContain("POST /_sandbox/webhooks (add a webhook)");
    expect(error?.message.includes("--stateful")).toBe(stateless);
  });

  it("a test-mode route asked without /_sandbox is a 404 that names it", async () => {
    const { status, problem } = await refusal(url(), "POST", "/clock/advance");
    expect(status).toBe(404);
    expect(problem.errors[0]?.message).toContain("the test mode has POST /_sandbox/clock/advance");
  });

  it("a route neither has gets no hint", async () => {
    const { status, problem } = await refusal(url(), "POST", "/refunds");
    expect(status).toBe(404);
    expect(problem.errors[0]?.message).toBe("no operation of the API has the path /refunds");
  });
});
