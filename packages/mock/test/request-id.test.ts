// x-request-id on every answer of the mock, the sandbox and the proxy: the request's own when it
// is sane, else a new one; logged on the request's line; never the API key.
import { connect } from "node:net";
import { specPath } from "@org/payments-spec";
import { API_KEY } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMock, type RunningProxy, startMock, startProxy } from "../src/index.js";
import { type FakeUpstream, startFakeUpstream } from "./support/fake-upstream.js";
import { send } from "./support/http.js";

const UUID = /^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/;
const auth = { "X-API-Key": API_KEY };

const logs = { mock: [] as string[], sandbox: [] as string[], proxy: [] as string[] };
let mock: RunningMock;
let sandbox: RunningMock;
let fake: FakeUpstream;
let proxy: RunningProxy;

beforeAll(async () => {
  [mock, sandbox] = await Promise.all([
    startMock({ spec: specPath, log: (line) => logs.mock.push(line) }),
    startMock({ spec: specPath, stateful: true, log: (line) => logs.sandbox.push(line) }),
  ]);
  fake = await startFakeUpstream(mock.url);
  proxy = await startProxy({
    upstream: fake.url,
    spec: specPath,
    errors: true,
    log: (line) => logs.proxy.push(line),
  });
});
afterAll(async () => {
  await proxy?.stop();
  await fake?.stop();
  await Promise.all([mock?.stop(), sandbox?.stop()]);
});

const servers = () => ({ mock: mock.url, sandbox: sandbox.url, proxy: proxy.url });

/** The log line of the last request sent to `name`. */
function lastLine(name: keyof typeof logs): string | undefined {
  return logs[name].at(-1);
}

describe.each(["mock", "sandbox", "proxy"] as const)("the %s", (name) => {
  it.each([
    ["a success", { target: "/webhooks", headers: auth }, 200],
    ["a validation error", { target: "/customers?page_size=1000", headers: auth }, 422],
    ["a missing API key", { target: "/customers" }, 401],
    ["a path of no operation", { target: "/refunds", headers: auth }, 404],
    [
      "malformed JSON",
      {
        method: "POST",
        target: "/customers",
        headers: { ...auth, "Content-Type": "application/json" },
        body: "{",
      },
      400,
    ],
    [
      "a CORS preflight",
      {
        method: "OPTIONS",
        target: "/customers",
        headers: { Origin: "http://app.example.test", "Access-Control-Request-Method": "POST" },
      },
      204,
    ],
  ])("answers %s with a new request id, and logs it", async (_, request, status) => {
    const answer = await send(servers()[name], request);
    expect(answer.status).toBe(status);
    const id = String(answer.headers["x-request-id"]);
    expect(id).toMatch(UUID);
    await expect.poll(() => lastLine(name)).toContain(`→ ${status} request-id=${id}`);
  });

  it("keeps a sane request id the client sent", async () => {
    const id = "req_2026-11-25.abc:42";
    const answer = await send(servers()[name], {
      target: "/customers?page_size=1000",
      headers: { ...auth, "X-Request-Id": id },
    });
    expect(answer.headers["x-request-id"]).toBe(id);
    await expect.poll(() => lastLine(name)).toContain(`→ 422 request-id=${id}`);
  });

  it.each([
    ["too long", "r".repeat(129)],
    ["with spaces", "two words"],
    ["with a quote", 'a"b'],
    ["the API key itself", API_KEY],
    ["holding the API key", `trace-${API_KEY}.1`],
  ])("replaces a request id %s", async (_, sent) => {
    const answer = await send(servers()[name], {
      target: "/webhooks",
      headers: { ...auth, "X-Request-Id": sent },
    });
    expect(answer.headers["x-request-id"]).toMatch(UUID);
    await expect.poll(() => lastLine(name)).toMatch(/request-id=[\da-f-]{36}/);
    expect(logs[name].join("\n")).not.toContain(API_KEY);
  });

  it("logs the request's target without the API key it carries", async () => {
    const answer = await send(servers()[name], {
      target: `/webhooks?api_key=${encodeURIComponent(API_KEY)}&page_size=${API_KEY}`,
      headers: auth,
    });
    expect(answer.status).toBeLessThan(500);
    await expect.poll(() => lastLine(name)).toContain("/webhooks?api_key=");
    expect(lastLine(name)).not.toContain(API_KEY);
    expect(lastLine(name)).not.toContain(encodeURIComponent(API_KEY));
  });

  it("answers what Node's parser refuses with a request id too", async () => {
    const { port } = new URL(servers()[name]);
    const socket = connect(Number(port), "127.0.0.1");
    socket.end("NOT HTTP AT ALL\r\n\r\n");
    let text = "";
    for await (const chunk of socket) text += String(chunk);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toMatch(/\r\nx-request-id: [\da-f-]{36}\r\n/);
  });
});

describe("the proxy and the upstream", () => {
  it("sends its request id on to the upstream, and answers with it", async () => {
    const before = fake.received.length;
    const answer = await send(proxy.url, {
      target: "/webhooks",
      headers: { ...auth, "X-Request-Id": "trace-7" },
    });
    expect(fake.received[before]?.headers["x-request-id"]).toBe("trace-7");
    expect(answer.headers["x-request-id"]).toBe("trace-7");
  });

  it("passes on the upstream's own request id, and logs that one", async () => {
    const relay = fake.answer;
    const page = (await send(mock.url, { target: "/webhooks", headers: auth })).text;
    fake.answer = (_, response) => {
      response
        .writeHead(200, { "content-type": "application/json", "x-request-id": "upstream-9" })
        .end(page);
    };
    try {
      const answer = await send(proxy.url, { target: "/webhooks", headers: auth });
      expect(answer.status).toBe(200);
      expect(answer.headers["x-request-id"]).toBe("upstream-9");
      await expect.poll(() => lastLine("proxy")).toContain("→ 200 request-id=upstream-9");
    } finally {
      fake.answer = relay;
    }
  });
});
