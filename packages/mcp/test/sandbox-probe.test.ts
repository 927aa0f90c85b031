// The sandbox probe against a server that takes the connection and never answers: the question
// stays open for 15 s (a loaded sandbox may be slow), then it is left open, not answered, and it is
// asked again when next needed. The client's timeout is a timer: fake ones stand in for the wait.
import { createPaymentsClient } from "@org/payments-client";
import { afterEach, expect, it, vi } from "vitest";
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
