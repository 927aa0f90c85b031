// The sandbox probe against a server that takes the connection and never answers: the question
// stays open for 15 s (a loaded sandbox may be slow), then it is left open, not answered, and it is
// asked again when next needed. The client's timeout is a timer: fake ones stand in for the wait.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createPaymentsClient } from "@org/payments-client";
import { afterEach, expect, it, vi } from "vitest";
import { callTool } from "../src/call-tool.ts";
import { tools } from "../src/generated/tools.ts";
import { contextOf } from "../src/options.ts";
import { type SandboxState, sandboxProbe } from "../src/sandbox-probe.ts";
import { sendWith } from "../src/send.ts";
import { undiciFetch } from "../src/undici-fetch.ts";
import { startPlainServer } from "./support/servers.js";
import { SECRET_KEY } from "./support/session.js";

afterEach(() => {
  vi.useRealTimers();
});

it("leaves the question open after 15 s without an answer, and asks again when next needed", async () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const silent = await startPlainServer("silent");
  try {
    const client = createPaymentsClient({
      apiKey: SECRET_KEY,
      baseUrl: silent.url,
      fetch: undiciFetch,
    });
    const probe = sandboxProbe(sendWith(client, SECRET_KEY, silent.url));
    /** Asks, and advances the fake clock once the server holds the request it will not answer. */
    const ask = async (asked: number) => {
      let state: SandboxState | undefined;
      const answer = probe.state().then((settled) => {
        state = settled;
        return settled;
      });
      while (silent.requests.length < asked) await new Promise((resolve) => setImmediate(resolve));
      await vi.advanceTimersByTimeAsync(14_999);
      expect(state).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      return answer;
    };

    const first = await ask(1);
    expect(first).toEqual({
      kind: "unknown",
      reason: expect.stringMatching(
        /^it did not answer GET \/_sandbox\/openapi\.json \(.*timed out after 15000 ms/,
      ),
    });
    expect(first.kind === "unknown" && first.reason).not.toContain(SECRET_KEY);
    expect(await ask(2)).toEqual(first);
    expect(silent.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /_sandbox/openapi.json",
      "GET /_sandbox/openapi.json",
    ]);
  } finally {
    await silent.stop();
  }
});

it("refuses a write without the key, when the server's document title quotes it", async () => {
  // Another API's document, whose title echoes the request's X-API-Key.
  const echo = createServer((incoming, outgoing) => {
    const document = {
      openapi: "3.1.0",
      info: { title: `API for ${incoming.headers["x-api-key"]}`, version: "1" },
      paths: {},
    };
    outgoing.writeHead(200, { "content-type": "application/json" });
    outgoing.end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
  try {
    const baseUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    const context = contextOf({ apiKey: SECRET_KEY, baseUrl, log: () => undefined });
    const create = tools.find((tool) => tool.name === "createCustomer");
    const result = await callTool(context, create as NonNullable<typeof create>, {
      customer_type: "Person",
      email: "ada@example.com",
    });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain('("API for [redacted]", where the sandbox');
    expect(JSON.stringify(result)).not.toContain(SECRET_KEY);
  } finally {
    echo.closeAllConnections();
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  }
});
