// The validating proxy over real sockets, in front of a fake upstream that relays the mock's
// answers or answers broken ones on purpose: forwarding, validation, reporting, modes, faults.
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { linkSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, request } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadSpec, specPath } from "@org/payments-spec";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { type Problem, type RunningProxy, startProxy, type Violation } from "../src/index.js";
import { type FakeUpstream, relayTo, startFakeUpstream } from "./support/fake-upstream.js";
import { send } from "./support/http.js";
import { reportViolations, trafficLines } from "./support/report-lines.js";

const mockUrl = inject("mockUrl");
const KEY = "sk_test_0123-SECRET-key";
const SUB_PARTNER = "0b7e3c52-6a1f-4d8e-9c2b-3f4a5b6c7d8e";
const IDEMPOTENCY = "5d2f0e1a-3b4c-4d5e-8f6a-7b8c9d0e1f2a";
const auth = { "X-API-Key": KEY };

let directory: string;
let fake: FakeUpstream;
let proxy: RunningProxy;
let strict: RunningProxy;
const started: RunningProxy[] = [];
const violations: Violation[] = [];
const logged: string[] = [];

async function start(options: Partial<Parameters<typeof startProxy>[0]> = {}) {
  const running = await startProxy({
    upstream: fake.url,
    spec: specPath,
    onViolation: (violation) => violations.push(violation),
    log: (line) => logged.push(line),
    ...options,
  });
  started.push(running);
  return running;
}

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), "payments-proxy-"));
  fake = await startFakeUpstream(mockUrl);
  proxy = await start({
    report: path.join(directory, "report.jsonl"),
    traffic: path.join(directory, "traffic.jsonl"),
  });
  strict = await start({ errors: true });
});
afterAll(async () => {
  await Promise.all(started.map((running) => running.stop()));
  await fake?.stop();
  rmSync(directory, { recursive: true, force: true });
});
beforeEach(() => {
  violations.length = 0;
  logged.length = 0;
  fake.received.length = 0;
  fake.answer = (received, response) => relayTo(mockUrl, received, response);
});

/** The mock's answer to a request, to break on purpose. */
async function mockAnswer(target: string): Promise<Record<string, unknown>> {
  return (await send(mockUrl, { target, headers: auth })).json() as Record<string, unknown>;
}

/** Answers every request with `status`, `headers` and `body` as given. */
function answerWith(status: number, headers: Record<string, string>, body: string) {
  fake.answer = (_, response) => {
    response.writeHead(status, headers).end(body);
  };
}

describe("forwarding", () => {
  it("passes the mock's answers through byte for byte", async () => {
    for (const target of ["/customers?page_size=5", "/webhooks", "/fee-profiles"]) {
      const direct = await send(mockUrl, { target, headers: auth });
      const proxied = await send(proxy.url, { target, headers: auth });
      expect(proxied.status).toBe(direct.status);
      expect(proxied.headers["content-type"]).toBe(direct.headers["content-type"]);
      expect(proxied.body.equals(direct.body)).toBe(true);
    }
    expect(violations).toEqual([]);
  });

  it("sends method, path, query, headers and body on unchanged", async () => {
    const body =
      '{ "customer_type": "Business",\n  "email": "ops@example.com", "name": "Ünïcode GmbH" }';
    await send(proxy.url, {
      method: "POST",
      target: "/customers?trace=a%20b&x=1&x=2",
      headers: {
        ...auth,
        "X-SUB-PARTNER-ID": SUB_PARTNER,
        "IDEMPOTENCY-KEY": IDEMPOTENCY,
        "X-Unknown-Header": "kept as is",
        "Content-Type": "application/json",
      },
      body,
    });
    const [received] = fake.received;
    expect(received?.method).toBe("POST");
    expect(received?.url).toBe("/customers?trace=a%20b&x=1&x=2");
    expect(received?.body.toString("utf8")).toBe(body);
    const headers = received?.rawHeaders ?? [];
    const pairs = headers.flatMap((name, i) => (i % 2 === 0 ? [`${name}: ${headers[i + 1]}`] : []));
    expect(pairs).toEqual(
      expect.arrayContaining([
        `X-API-Key: ${KEY}`,
        `X-SUB-PARTNER-ID: ${SUB_PARTNER}`,
        `IDEMPOTENCY-KEY: ${IDEMPOTENCY}`,
        "X-Unknown-Header: kept as is",
        "Content-Type: application/json",
        `content-length: ${Buffer.byteLength(body)}`,
        `host: ${new URL(fake.url).host}`,
      ]),
    );
  });

  it("answers with the upstream's status, headers and body, whatever they are", async () => {
    answerWith(
      503,
      { "content-type": "application/json", "x-request-id": "r-1", "retry-after": "7" },
      '{"busy":true}',
    );
    const answer = await send(proxy.url, { target: "/webhooks", headers: auth });
    expect(answer.status).toBe(503);
    expect(answer.headers["x-request-id"]).toBe("r-1");
    expect(answer.headers["retry-after"]).toBe("7");
    expect(answer.text).toBe('{"busy":true}');
  });

  it("logs the upstream's request id only when a log line can carry it as it is, else its own", async () => {
    const forged = "r-2 - 2 violations: listWebhooks response: forged by the upstream";
    answerWith(200, { "content-type": "application/json", "x-request-id": forged }, "{}");
    const answer = await send(proxy.url, {
      target: "/webhooks",
      headers: { ...auth, "x-request-id": "client-7" },
    });
    expect(answer.headers["x-request-id"]).toBe(forged); // passed back as it came
    expect(logged).toEqual([
      expect.stringMatching(/^GET \/webhooks → 200 request-id=client-7 — 1 violation: /),
    ]);
    expect(logged[0]).not.toContain("forged");
    answerWith(200, { "content-type": "application/json", "x-request-id": "r-1" }, "{}");
    await send(proxy.url, { target: "/webhooks", headers: auth });
    expect(logged[1]).toContain("request-id=r-1 ");
  });

  it("removes hop-by-hop headers both ways and adds itself to Via", async () => {
    fake.answer = (_, response) => {
      response.writeHead(200, {
        "content-type": "application/json",
        connection: "x-upstream-hop",
        "x-upstream-hop": "1",
        "x-end-to-end": "1",
      });
      response.end('{"items":[]}');
    };
    const answer = await send(proxy.url, {
      target: "/webhooks",
      headers: {
        ...auth,
        Connection: "keep-alive, X-Client-Hop",
        "X-Client-Hop": "1",
        "Keep-Alive": "timeout=5",
        "Proxy-Authorization": "Basic c2VjcmV0",
      },
    });
    const received = fake.received[0]?.headers ?? {};
    expect(received["x-client-hop"]).toBeUndefined();
    expect(received["keep-alive"]).toBeUndefined();
    expect(received["proxy-authorization"]).toBeUndefined();
    expect(received.via).toBe("1.1 payments-mock");
    expect(answer.headers["x-upstream-hop"]).toBeUndefined();
    expect(answer.headers["x-end-to-end"]).toBe("1");
    expect(answer.headers.via).toBe("1.1 payments-mock");
  });

  it("streams a large answer: the client reads its start before the upstream has sent its end", async () => {
    const [item] = (await mockAnswer("/customers")).items as unknown[];
    const items = JSON.stringify(Array.from({ length: 2_000 }, () => item));
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    fake.answer = async (_, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write(`{"items":${items.slice(0, -1)}`);
      await released;
      response.end("]}");
    };
    const { request } = await import("node:http");
    const body = await new Promise<string>((resolve, reject) => {
      const outgoing = request(`${proxy.url}/customers`, { headers: auth, agent: false });
      outgoing.once("error", reject);
      outgoing.once("response", (response) => {
        let text = "";
        response.on("data", (chunk) => {
          // The first bytes came while the upstream still holds back its end.
          if (text === "") release();
          text += chunk;
        });
        response.once("end", () => resolve(text));
      });
      outgoing.end();
    });
    expect(JSON.parse(body).items).toHaveLength(2_000);
    expect(violations).toEqual([]);
  }, 30_000);

  it("ends an answer of known length only once it is checked: a client elsewhere that read it all finds its violations reported", async () => {
    const page = await mockAnswer("/webhooks");
    const items = page.items as unknown[];
    // Large enough that checking it takes a while; its last item breaks the spec.
    const body = JSON.stringify({
      ...page,
      items: [...Array.from({ length: 30_000 }, () => items[0]), 7],
    });
    fake.answer = (_, response) => {
      const length = String(Buffer.byteLength(body));
      response.writeHead(200, { "content-type": "application/json", "content-length": length });
      // All but the last byte, then the last one alone, once the client has read the rest.
      response.write(body.slice(0, -1));
      setTimeout(() => response.end(body.slice(-1)), 100);
    };
    const reported = new Int32Array(new SharedArrayBuffer(4));
    const { Worker } = await import("node:worker_threads");
    // A client in a thread of its own, as a test process is: it reads while the proxy checks.
    const client = new Worker(
      `const { workerData, parentPort } = require("node:worker_threads");
      require("node:http").get(workerData.url, { headers: workerData.headers }, (response) => {
        response.resume();
        response.on("end", () => parentPort.postMessage(Atomics.load(workerData.reported, 0)));
      });`,
      { eval: true, workerData: { url: `${proxy.url}/webhooks`, headers: auth, reported } },
    );
    const before = violations.length;
    const seen = new Promise((resolve) => client.once("message", resolve));
    // Marked as the proxy reports it, before anything else can run.
    violations.push = (...added) => {
      Atomics.store(reported, 0, 1);
      return Array.prototype.push.apply(violations, added);
    };
    try {
      expect(await seen).toBe(1);
    } finally {
      delete (violations as { push?: unknown }).push;
      await client.terminate();
    }
    expect(violations.slice(before)).toEqual([
      expect.objectContaining({ field: "items.30000", rule: "type" }),
    ]);
  });

  it("with errors, sends on an answer past the size it checks, pausing the upstream once at a time", async () => {
    const warnings: Error[] = [];
    const warned = (warning: Error) => warnings.push(warning);
    process.on("warning", warned);
    const body = " ".repeat(17 * 1024 * 1024);
    answerWith(200, { "content-type": "application/json" }, body);
    try {
      const answer = await send(strict.url, { target: "/webhooks", headers: auth });
      expect(answer.body.length).toBe(body.length);
    } finally {
      process.off("warning", warned);
    }
    // The chunks held back went out at once, each adding a drain listener past Node's limit.
    expect(warnings.map((warning) => warning.name)).not.toContain("MaxListenersExceededWarning");
  }, 30_000);

  it("sends requests on below the upstream's path", async () => {
    const prefixed = await start({ upstream: `${fake.url}/partner/v1/` });
    answerWith(200, { "content-type": "application/json" }, '{"items":[]}');
    await send(prefixed.url, { target: "/webhooks?page_size=2", headers: auth });
    expect(fake.received[0]?.url).toBe("/partner/v1/webhooks?page_size=2");
  });
});

describe("request targets", () => {
  it("the mock answers an absolute-form target as its path", async () => {
    const answer = await send(mockUrl, {
      target: "http://api.example.test/webhooks",
      headers: auth,
    });
    expect(answer.status).toBe(200);
  });

  it("the proxy accepts an absolute-form target and sends its path and query on", async () => {
    const answer = await send(proxy.url, {
      target: "http://api.example.test/customers?page_size=3",
      headers: auth,
    });
    expect(answer.status).toBe(200);
    expect(fake.received[0]?.url).toBe("/customers?page_size=3");
    expect(violations).toEqual([]);
  });

  it.each([
    "/../admin",
    "/customers/%2e%2E/%2E%2e/admin",
    "/webhooks/..%2Fadmin",
    "/webhooks\\..\\admin",
    "/customers/./..",
    "/webhooks/..;/admin",
    "/webhooks/%2e%2e%3bjsessionid=1/admin",
    "http://api.example.test/../admin?page_size=1",
  ])(
    "refuses a target whose dot segments would leave the upstream's path (%s), in any mode",
    async (target) => {
      for (const running of [proxy, strict]) {
        const answer = await send(running.url, { target, headers: auth });
        expect(answer.status).toBe(400);
        const problem = answer.json() as Problem;
        expect(problem.errors[0]).toMatchObject({ location: "path", rule: "dotSegment" });
      }
      expect(fake.received).toHaveLength(0);
    },
  );

  it("never logs or reports the credentials of an absolute-form target's user info", async () => {
    const answer = await send(proxy.url, {
      target: "http://partner:hunter2-secret@api.example.test/webhooks?page_size=500",
      headers: auth,
    });
    expect(answer.status).toBe(422); // the mock behind the fake upstream refuses it too
    expect(fake.received[0]?.url).toBe("/webhooks?page_size=500");
    expect(violations).toEqual([
      expect.objectContaining({ target: "http://api.example.test/webhooks?page_size=500" }),
    ]);
    expect(logged[0]).toMatch(/^GET http:\/\/api\.example\.test\/webhooks\?page_size=500 → 422/);
    const report = readFileSync(path.join(directory, "report.jsonl"), "utf8");
    for (const text of [report, logged.join("\n")]) expect(text).not.toContain("hunter2");
  });

  it("a CONNECT, from a client set to use the proxy for HTTPS, gets a 405 problem, not a dropped connection", async () => {
    const answer = await new Promise<string>((resolve) => {
      let received = "";
      const socket = connect(proxy.port, "127.0.0.1", () => {
        socket.write("CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n\r\n");
      });
      socket.on("data", (chunk) => {
        received += chunk;
      });
      socket.on("close", () => resolve(received));
    });
    expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 405 Method Not Allowed");
    const body = JSON.parse(answer.slice(answer.indexOf("{"))) as Problem;
    expect(body.errors[0]?.message).toContain("CONNECT asks for a tunnel");
    expect(fake.received).toHaveLength(0);
  });

  it("stops promptly though a client that sent a CONNECT keeps its connection open", async () => {
    const running = await start();
    // It reads the 405 and keeps its side open, as a client that half-closes only when it is done.
    const socket = connect({ port: running.port, host: "127.0.0.1", allowHalfOpen: true });
    socket.on("error", () => {});
    socket.write("CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n\r\n");
    await once(socket, "data");
    const stopped = await Promise.race([
      running.stop().then(() => "stopped"),
      new Promise((resolve) => setTimeout(resolve, 2000, "still running")),
    ]);
    socket.destroy();
    expect(stopped).toBe("stopped");
  });

  it("a single-valued query parameter sent twice is refused as repeated, naming it", async () => {
    const answer = await send(mockUrl, {
      target: "/customers?page_size=10&page_size=20",
      headers: auth,
    });
    expect(answer.status).toBe(422);
    const problem = answer.json() as Problem;
    expect(problem.errors).toEqual([
      expect.objectContaining({ location: "query", field: "page_size", rule: "repeated" }),
    ]);
    expect(problem.detail).toContain("page_size: was sent more than once");
  });

  it("a repeated array parameter is no problem", async () => {
    const ids = ["1a5e9c3d-7f2b-4c6e-8a1d-5b9f3e7c2a64", "2b6f0d4e-8a3c-4d7f-9b2e-6c0a4f8d3b75"];
    const answer = await send(mockUrl, {
      target: `/autoramp-transactions/ids?ids=${ids[0]}&ids=${ids[1]}`,
      headers: auth,
    });
    expect(answer.status).toBe(200);
  });

  it("the proxy reports a repeated parameter as a request violation", async () => {
    await send(proxy.url, { target: "/customers?page_size=10&page_size=20", headers: auth });
    expect(violations.filter((v) => v.location === "request")).toEqual([
      expect.objectContaining({
        operation: "listCustomers",
        in: "query",
        field: "page_size",
        rule: "repeated",
      }),
    ]);
  });
});

describe("validation and the report", () => {
  it("reports what a request breaks, and still sends it on", async () => {
    await send(proxy.url, {
      method: "POST",
      target: "/customers",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ customer_type: "Business", email: 42 }),
    });
    expect(fake.received).toHaveLength(1);
    const found = violations.filter((v) => v.location === "request");
    expect(found).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          operation: "createCustomer",
          in: "header",
          field: "IDEMPOTENCY-KEY",
          rule: "required",
        }),
        expect.objectContaining({
          operation: "createCustomer",
          in: "body",
          field: "email",
          rule: "type",
          actual: "number",
        }),
      ]),
    );
    expect(found.find((v) => v.field === "email")?.message).toBe(
      "createCustomer request: body email: must be a string; got a number",
    );
  });

  it("reports a body field of the wrong type, naming its path and actual type, and nothing for unnamed fields", async () => {
    const page = await mockAnswer("/customers");
    const [first] = page.items as Record<string, unknown>[];
    page.items = [{ ...first, id: 5, surprise: "unnamed fields are allowed" }];
    answerWith(200, { "content-type": "application/json" }, JSON.stringify(page));
    const answer = await send(proxy.url, { target: "/customers", headers: auth });
    expect(answer.status).toBe(200);
    expect(violations).toEqual([
      expect.objectContaining({
        operation: "listCustomers",
        location: "response",
        status: 200,
        in: "body",
        field: "items.0.id",
        rule: "type",
        actual: "number",
        excerpt: "5",
        message: "listCustomers response: body items.0.id: must be a string; got a number",
      }),
    ]);
    expect(logged.at(-1)).toMatch(
      /^GET \/customers → 200 request-id=\S+ — 1 violation: listCustomers response: body items\.0\.id/,
    );
  });

  it("reports a missing required field", async () => {
    const page = await mockAnswer("/webhooks");
    const [first] = page.items as Record<string, unknown>[];
    const { url: _, ...withoutUrl } = first ?? {};
    page.items = [withoutUrl];
    answerWith(200, { "content-type": "application/json" }, JSON.stringify(page));
    await send(proxy.url, { target: "/webhooks", headers: auth });
    expect(violations).toEqual([
      expect.objectContaining({
        operation: "listWebhooks",
        in: "body",
        field: "items.0.url",
        rule: "required",
      }),
    ]);
  });

  it("reports a media type the spec does not declare, naming it and the declared one", async () => {
    answerWith(200, { "content-type": "text/html; charset=utf-8" }, "<html>maintenance</html>");
    const answer = await send(proxy.url, { target: "/webhooks", headers: auth });
    expect(answer.text).toBe("<html>maintenance</html>");
    expect(violations).toEqual([
      expect.objectContaining({
        operation: "listWebhooks",
        location: "response",
        in: "header",
        field: "Content-Type",
        rule: "mediaType",
        actual: "text/html; charset=utf-8",
      }),
    ]);
    expect(violations[0]?.message).toContain("declared: application/json");
  });

  it("reports a Content-Type that does not parse as one the spec does not declare", async () => {
    const page = JSON.stringify(await mockAnswer("/webhooks"));
    answerWith(200, { "content-type": "application/json; charset" }, page);
    const answer = await send(proxy.url, { target: "/webhooks", headers: auth });
    expect(answer.text).toBe(page);
    expect(violations).toEqual([
      expect.objectContaining({
        in: "header",
        field: "Content-Type",
        rule: "mediaType",
        actual: "application/json; charset",
      }),
    ]);
    const refused = await send(strict.url, { target: "/webhooks", headers: auth });
    expect(refused.status).toBe(502);
    expect((refused.json() as Problem).type).toBe("urn:org:payments-mock:problem:invalid-response");
  });

  it("reports a Content-Type sent twice, which a client reads as neither, and passes both on", async () => {
    const page = JSON.stringify(await mockAnswer("/webhooks"));
    fake.answer = (_, response) => {
      response.writeHead(200, [
        "Content-Type",
        "application/json",
        "Content-Type",
        "application/json; charset=utf-8",
      ]);
      response.end(page);
    };
    const answer = await send(proxy.url, { target: "/webhooks", headers: auth });
    expect(answer.text).toBe(page);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(violations).toEqual([
      expect.objectContaining({
        in: "header",
        field: "Content-Type",
        rule: "repeated",
        actual: "application/json, application/json; charset=utf-8",
      }),
    ]);
  });

  it("reports a JSON body that does not parse", async () => {
    answerWith(200, { "content-type": "application/json" }, '{"items": [');
    await send(proxy.url, { target: "/webhooks", headers: auth });
    expect(violations).toEqual([expect.objectContaining({ in: "body", field: "", rule: "json" })]);
  });

  it("reports a JSON body that is not UTF-8, as the mock refuses such a request", async () => {
    const latin1 = Buffer.from('{"items": [], "next_cursor": "caf\xe9"}', "latin1");
    fake.answer = (_, response) => {
      response.writeHead(200, { "content-type": "application/json; charset=iso-8859-1" });
      response.end(latin1);
    };
    const answer = await send(proxy.url, { target: "/webhooks", headers: auth });
    expect(answer.body.equals(latin1)).toBe(true);
    expect(violations).toEqual([
      expect.objectContaining({
        in: "body",
        field: "",
        rule: "encoding",
        message: expect.stringContaining("is not valid UTF-8"),
      }),
    ]);
    const refused = await send(strict.url, { target: "/webhooks", headers: auth });
    expect(refused.status).toBe(502);
  });

  it.each([
    ["a 100,000-deep array", `${"[".repeat(100_000)}${"]".repeat(100_000)}`],
    ["a 50,000-deep object", `${'{"a":'.repeat(50_000)}1${"}".repeat(50_000)}`],
  ])("reports a response body nested past the limit (%s) and passes it on", async (_, deep) => {
    answerWith(200, { "content-type": "application/json" }, deep);
    const answer = await send(proxy.url, { target: "/webhooks", headers: auth });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(deep);
    expect(violations).toEqual([
      expect.objectContaining({ in: "body", field: "", rule: "maxDepth" }),
    ]);
    const refused = await send(strict.url, { target: "/webhooks", headers: auth });
    expect(refused.status).toBe(502);
  });

  it("checks a gzip-encoded body after decoding it", async () => {
    const { gzipSync } = await import("node:zlib");
    const page = await mockAnswer("/webhooks");
    page.items = "not a list";
    const zipped = gzipSync(JSON.stringify(page));
    fake.answer = (_, response) => {
      response
        .writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" })
        .end(zipped);
    };
    const answer = await send(proxy.url, {
      target: "/webhooks",
      headers: { ...auth, "Accept-Encoding": "gzip" },
    });
    expect(answer.body.equals(zipped)).toBe(true);
    expect(violations).toEqual([
      expect.objectContaining({ field: "items", rule: "type", actual: "string" }),
    ]);
  });

  it("says in the log that a body of a content-coding it does not decode was not checked", async () => {
    answerWith(200, { "content-type": "application/json", "content-encoding": "zstd" }, "(zstd)");
    await send(proxy.url, { target: "/webhooks", headers: auth });
    expect(violations).toEqual([]);
    expect(logged[0]).toContain("(body in zstd, which the proxy does not decode, not checked)");
  });

  it("passes on unchecked a compressed body that decodes past 16 MiB, without decoding it all", async () => {
    const { gzipSync } = await import("node:zlib");
    // A few KiB on the wire, 17 MiB decoded: the check decodes no more than it would check.
    const zipped = gzipSync(`{"items": "${"a".repeat(17 * 1024 * 1024)}"}`);
    fake.answer = (_, response) => {
      response
        .writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" })
        .end(zipped);
    };
    const answer = await send(proxy.url, { target: "/webhooks", headers: auth });
    expect(answer.body.equals(zipped)).toBe(true);
    expect(violations).toEqual([]);
    expect(logged[0]).toContain("not checked");
  });

  it("reports a status the spec does not declare", async () => {
    const spec = loadSpec() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const listWebhooks = spec.paths["/webhooks"]?.get;
    if (listWebhooks) delete listWebhooks.responses.default;
    const specFile = path.join(directory, "no-default.json");
    writeFileSync(specFile, JSON.stringify(spec));
    const narrow = await start({ spec: specFile });
    answerWith(201, { "content-type": "application/json" }, '{"items":[]}');
    await send(narrow.url, { target: "/webhooks", headers: auth });
    expect(violations).toEqual([
      expect.objectContaining({
        operation: "listWebhooks",
        in: "status",
        rule: "status",
        actual: "201",
        status: 201,
      }),
    ]);
    expect(violations[0]?.message).toBe(
      "listWebhooks response: status: is not a status the spec declares for this operation (declared: 200) (got 201)",
    );
  });

  it("reports a path the spec does not have", async () => {
    answerWith(404, { "content-type": "application/json" }, "{}");
    await send(proxy.url, { target: "/refunds", headers: auth });
    expect(violations).toEqual([
      expect.objectContaining({ operation: null, location: "request", in: "route", rule: "route" }),
    ]);
    expect(fake.received).toHaveLength(1);
  });

  it("logs at most 50 of an answer's violations on its line, and how many more; the report has all", async () => {
    const page = await mockAnswer("/webhooks");
    const items = Array.from({ length: 60 }, (_, i) => ({ ...(page.items as object[])[0], id: i }));
    answerWith(200, { "content-type": "application/json" }, JSON.stringify({ ...page, items }));
    await send(proxy.url, { target: "/webhooks", headers: auth });
    expect(violations).toHaveLength(60);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("— 60 violations: listWebhooks response: body items.0.id:");
    expect(logged[0]).toContain("items.49.id");
    expect(logged[0]).not.toContain("items.50.id");
    expect(logged[0]).toMatch(/; and 10 more$/);
  });

  it("appends each violation to the report as one JSON line, as it is found", async () => {
    const report = path.join(directory, "report.jsonl");
    const before = reportViolations(report).length;
    answerWith(200, { "content-type": "text/plain" }, "ok");
    await send(proxy.url, { target: "/webhooks?page_size=500", headers: auth });
    const written = reportViolations(report).slice(before);
    expect(written).toEqual(violations);
    expect(written.map((v) => [v.location, v.in, v.field])).toEqual([
      ["request", "query", "page_size"],
      ["response", "header", "Content-Type"],
    ]);
    for (const violation of written) {
      expect(violation).toEqual(
        expect.objectContaining({
          operation: "listWebhooks",
          method: "GET",
          target: "/webhooks?page_size=500",
        }),
      );
      expect(typeof violation.message).toBe("string");
    }
  });

  it("keeps a report line one line for every reader, with the line separators of a value escaped", async () => {
    const report = path.join(directory, "report.jsonl");
    const before = readFileSync(report, "utf8");
    answerWith(200, { "content-type": "application/json" }, '{"items": "a\u2028b\u2029c\u0085d"}');
    await send(proxy.url, { target: "/webhooks", headers: auth });
    const added = readFileSync(report, "utf8").slice(before.length);
    // Python's str.splitlines(), for one, ends a line at each of these.
    expect(added).not.toMatch(/[\u2028\u2029\u0085]/);
    expect(
      added
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    ).toEqual(violations);
    expect(violations[0]?.excerpt).toBe('"a\u2028b\u2029c\u0085d"');
  });

  it("keeps the report to violations: each answered request goes to the traffic file", async () => {
    const report = path.join(directory, "report.jsonl");
    const traffic = path.join(directory, "traffic.jsonl");
    const [reportBefore, trafficBefore] = [reportViolations(report), trafficLines(traffic)];
    await send(proxy.url, { target: "/webhooks", headers: auth }); // valid: no violation
    await send(proxy.url, { target: "/customers?page_size=500", headers: auth });
    await send(proxy.url, { target: "/refunds", headers: auth });
    // Every line of the report is still a whole violation, and only the two requests that broke
    // the spec added to it.
    const added = reportViolations(report).slice(reportBefore.length);
    expect(added.map((v) => [v.operation, v.in, v.rule])).toEqual([
      ["listCustomers", "query", "maximum"],
      [null, "route", "route"],
    ]);
    expect(trafficLines(traffic).slice(trafficBefore.length)).toEqual([
      ["listWebhooks", 200],
      ["listCustomers", 422],
      [null, 404],
    ]);
  });

  it("refuses a traffic file that is the report's file", async () => {
    const file = path.join(directory, "both.jsonl");
    await expect(
      start({ report: file, traffic: path.join(directory, ".", "both.jsonl") }),
    ).rejects.toThrow("the traffic file must not be the report's file");
  });

  it("refuses an upstream that is the proxy itself, where each request came back to it ~850 times", async () => {
    const free = createServer().listen(0, "127.0.0.1");
    await once(free, "listening");
    const { port } = free.address() as AddressInfo;
    await new Promise((resolve) => free.close(resolve));
    for (const upstream of [`http://127.0.0.1:${port}`, `http://localhost:${port}/v1`]) {
      await expect(start({ port, upstream })).rejects.toThrow(
        `the upstream ${new URL(upstream).origin} is the proxy itself`,
      );
    }
  });

  it("refuses an upstream URL with a query without printing the credentials in it", async () => {
    await expect(start({ upstream: "https://partner:hunter2@api.example/v1?x=1" })).rejects.toThrow(
      'upstream must not have a query or a fragment, got "https://…@api.example/v1?x=1"',
    );
  });

  it("refuses a report file that is a FIFO nothing reads, rather than wait on it for ever", async () => {
    const fifo = path.join(directory, "violations.fifo");
    execFileSync("mkfifo", [fifo]);
    await expect(start({ report: fifo })).rejects.toThrow(
      `the report file ${fifo} is a FIFO (named pipe) that nothing reads`,
    );
  });

  it("refuses a traffic file that is the report's file under another name (a link)", async () => {
    const file = path.join(directory, "linked.jsonl");
    writeFileSync(file, "");
    symlinkSync(file, path.join(directory, "symlink.jsonl"));
    linkSync(file, path.join(directory, "hardlink.jsonl"));
    for (const other of ["symlink.jsonl", "hardlink.jsonl"]) {
      await expect(start({ report: file, traffic: path.join(directory, other) })).rejects.toThrow(
        "the traffic file must not be the report's file",
      );
    }
  });

  it("never shows the API key, even when the upstream echoes it in a header and a body", async () => {
    fake.answer = (received, response) => {
      const key = String(received.headers["x-api-key"]);
      response.writeHead(200, { "content-type": "application/json", "x-echo": key });
      response.end(JSON.stringify({ items: `your key is ${key}`, key }));
    };
    const target = `/webhooks?api_key=${encodeURIComponent(KEY)}&page_size=${encodeURIComponent(KEY)}`;
    const answer = await send(proxy.url, { target, headers: auth });
    const refused = await send(strict.url, { target: "/webhooks", headers: auth });
    expect(answer.headers["x-echo"]).toBe(KEY); // the traffic itself is untouched
    expect(violations.length).toBeGreaterThanOrEqual(3);
    const shown = [
      JSON.stringify(violations),
      readFileSync(path.join(directory, "report.jsonl"), "utf8"),
      readFileSync(path.join(directory, "traffic.jsonl"), "utf8"),
      logged.join("\n"),
      refused.text,
    ];
    for (const text of shown) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(KEY.slice(0, 12));
    }
    expect(JSON.stringify(violations)).toContain("[REDACTED]");
    expect(refused.status).toBe(502);
  });
  it("never shows part of the API key when the upstream echoes it in JSON that does not parse", async () => {
    // JSON.parse's words quote the text around the fault, cutting the key short.
    answerWith(200, { "content-type": "application/json" }, `{"items": [], "echo": ${KEY}}`);
    await send(proxy.url, { target: "/webhooks", headers: auth });
    const refused = await send(strict.url, { target: "/webhooks", headers: auth });
    // A client's own body, too.
    await send(proxy.url, {
      method: "POST",
      target: "/customers",
      headers: { ...auth, "Content-Type": "application/json", "IDEMPOTENCY-KEY": IDEMPOTENCY },
      body: `{"customer_type": "Person", "email": ${KEY}}`,
    });
    expect(violations).toEqual([
      expect.objectContaining({ rule: "json" }),
      expect.objectContaining({ rule: "json" }),
      expect.objectContaining({ location: "request", rule: "json" }),
      ...violations.slice(3),
    ]);
    expect(refused.status).toBe(502);
    for (const text of [JSON.stringify(violations), logged.join("\n"), refused.text]) {
      expect(text).not.toContain(KEY.slice(0, 8));
    }
  });

  it("never shows the credentials of an Authorization header either, when the upstream echoes them", async () => {
    const token = "sk_live_9f8e7d6c5b4a-BEARER";
    fake.answer = (received, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ items: `bad ${received.headers.authorization}`, token }));
    };
    const headers = { ...auth, Authorization: `Bearer ${token}` };
    await send(proxy.url, { target: "/webhooks", headers });
    const refused = await send(strict.url, { target: "/webhooks", headers });
    expect(violations.length).toBeGreaterThan(0);
    for (const text of [JSON.stringify(violations), logged.join("\n"), refused.text]) {
      expect(text).not.toContain(token.slice(0, 12));
    }
  });

  it("never shows either API key when a client sends the header twice", async () => {
    const other = "sk_test_4567-OTHER-key";
    fake.answer = (_, response) => {
      // Each key alone, where the report and the 502 quote the body.
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ items: [KEY, other] }));
    };
    // Raw pairs get no Host from Node.
    const headers = ["Host", "127.0.0.1", "X-API-Key", KEY, "X-API-Key", other];
    const refused = await send(strict.url, { target: "/webhooks", headers });
    expect(refused.status).toBe(502);
    const shown = [JSON.stringify(violations), logged.join("\n"), refused.text];
    expect(shown[0]).toContain("[REDACTED]");
    for (const text of shown) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(other);
    }
  });
  it("takes a short API key out only where it stands apart, not out of numbers", async () => {
    const key = "0";
    answerWith(200, { "content-type": "application/json" }, JSON.stringify({ items: key }));
    const target = "/webhooks?page_size=1000";
    await send(proxy.url, { target, headers: { "X-API-Key": key } });
    expect(violations).toEqual([
      expect.objectContaining({
        target,
        message: "listWebhooks request: query page_size: must be at most 100",
        excerpt: '"1000"',
      }),
      expect.objectContaining({ field: "items", excerpt: '"[REDACTED]"' }),
    ]);
    expect(logged[0]).toContain("→ 200");
  });
});

describe("with errors", () => {
  it("refuses an invalid request with the mock's problem, without sending it on", async () => {
    const target = "/customers?page_size=1000";
    const direct = await send(mockUrl, { target, headers: auth });
    const answer = await send(strict.url, { target, headers: auth });
    expect(answer.status).toBe(422);
    expect(answer.json()).toEqual(direct.json());
    const unauthorized = await send(strict.url, { target: "/customers" });
    expect(unauthorized.status).toBe(401);
    expect((unauthorized.json() as Problem).errors[0]?.field).toBe("X-API-Key");
    expect(fake.received).toHaveLength(0);
    expect(violations.map((v) => v.rule)).toEqual(["maximum", "required"]);
  });

  it("passes a valid exchange through unchanged", async () => {
    const direct = await send(mockUrl, { target: "/customers", headers: auth });
    const answer = await send(strict.url, { target: "/customers", headers: auth });
    expect(answer.status).toBe(200);
    expect(answer.body.equals(direct.body)).toBe(true);
  });

  it("replaces a response that breaks the spec with a 502 that says what broke", async () => {
    const page = await mockAnswer("/customers");
    page.items = [{ id: 5 }];
    answerWith(200, { "content-type": "application/json" }, JSON.stringify(page));
    const answer = await send(strict.url, { target: "/customers", headers: auth });
    expect(answer.status).toBe(502);
    const problem = answer.json() as Problem;
    expect(problem.type).toBe("urn:org:payments-mock:problem:invalid-response");
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          location: "body",
          field: "items.0.id",
          rule: "type",
          message: "must be a string; got a number",
        }),
        expect.objectContaining({ location: "body", field: "items.0.email", rule: "required" }),
      ]),
    );
  });
});

describe("faults", () => {
  it("answers 502 promptly when the upstream cannot be reached", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await start({ upstream: `http://127.0.0.1:${port}` });
    const answer = await send(unreachable.url, { target: "/webhooks", headers: auth });
    expect(answer.status).toBe(502);
    const problem = answer.json() as Problem;
    expect(problem.type).toBe("urn:org:payments-mock:problem:upstream-unreachable");
    expect(problem.detail).toContain("ECONNREFUSED");
  });

  it("answers 502 when the upstream resets the connection", async () => {
    fake.answer = (_, response) => {
      response.socket?.destroy();
    };
    const answer = await send(proxy.url, { target: "/webhooks", headers: auth });
    expect(answer.status).toBe(502);
    expect((answer.json() as Problem).detail).toContain("ECONNRESET");
  });

  it.each([
    ["a status below 100", "HTTP/1.1 000 Nothing\r\ncontent-length: 0\r\n\r\n", "status 0"],
    [
      "a 101 to a request that asked for no upgrade",
      "HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n",
      "switched protocols (101)",
    ],
    [
      "a 101 without Connection: upgrade, which Node reads as an answer",
      "HTTP/1.1 101 Switching Protocols\r\ncontent-type: application/json\r\n\r\n{}",
      "switched protocols (101)",
    ],
  ])("answers 502 when the upstream answers %s", async (_, head, detail) => {
    // An upstream time limit past the test's: only the 502 itself can answer.
    const patient = await start({ upstreamTimeoutMs: 600_000 });
    fake.answer = (_, response) => {
      response.socket?.end(head);
    };
    const answer = await send(patient.url, { target: "/webhooks", headers: auth });
    expect(answer.status).toBe(502);
    expect((answer.json() as Problem).detail).toContain(detail);
  });

  it("passes on an answer whose reason phrase Node will not send (a DEL in it), with the status's own", async () => {
    const page = JSON.stringify(await mockAnswer("/webhooks"));
    fake.answer = (_, response) => {
      response.socket?.end(
        `HTTP/1.1 200 O\x7fK\r\ncontent-type: application/json\r\ncontent-length: ${page.length}\r\n\r\n${page}`,
      );
    };
    for (const running of [proxy, strict]) {
      const answer = await send(running.url, { target: "/webhooks", headers: auth });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(page);
    }
    expect(logged.join("\n")).not.toContain("proxy failure");
  });

  it("says that an upstream whose answer is not valid HTTP answered, not that it could not be reached", async () => {
    fake.answer = (_, response) => {
      response.socket?.end("HTTP/1.1 200 OK\ncontent-type: application/json\n\n{}");
    };
    const answer = await send(proxy.url, { target: "/webhooks", headers: auth });
    expect(answer.status).toBe(502);
    const { detail } = answer.json() as Problem;
    expect(detail).toContain("answered what is not valid HTTP (HPE_CR_EXPECTED");
    expect(detail).not.toContain("could not be reached");
  });

  it("answers 504 when the upstream does not answer in time", async () => {
    const impatient = await start({ upstreamTimeoutMs: 300 });
    fake.answer = () => {};
    const answer = await send(impatient.url, { target: "/webhooks", headers: auth });
    expect(answer.status).toBe(504);
    expect((answer.json() as Problem).detail).toContain("did not answer within 300 ms");
  });

  it("takes a time limit past what a timer holds (25 days) as that long, not as 1 ms", async () => {
    const patient = await start({ upstreamTimeoutMs: 2 ** 31 });
    fake.answer = (_, response) => {
      setTimeout(() => {
        response.writeHead(200, { "content-type": "application/json" }).write('{"items"');
        setTimeout(() => response.end(": []}"), 30);
      }, 30);
    };
    const answer = await send(patient.url, { target: "/webhooks", headers: auth });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('{"items": []}');
  });

  it("does not count a client's slowness to read against the upstream's time limit", async () => {
    const impatient = await start({ upstreamTimeoutMs: 200 });
    const body = Buffer.alloc(8 * 1024 * 1024, " ");
    fake.answer = (_, response) => {
      response.writeHead(200, { "content-type": "text/plain" }).end(body);
    };
    const read = await new Promise<number>((resolve, reject) => {
      const outgoing = request(`${impatient.url}/webhooks`, { headers: auth, agent: false });
      outgoing.on("response", (response) => {
        let size = 0;
        response.pause(); // Reads nothing for 3 times the upstream's limit, then all of it.
        setTimeout(() => response.resume(), 600);
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
        });
        response.on("end", () => resolve(size));
        response.on("error", reject);
      });
      outgoing.on("error", reject);
      outgoing.end();
    });
    expect(read).toBe(body.length);
  });

  it("answers 504, not 'closed the connection', when the upstream stalls mid-body past its time limit", async () => {
    const impatient = await start({ upstreamTimeoutMs: 300, errors: true });
    fake.answer = (_, response) => {
      response.writeHead(200, { "content-type": "application/json" }).write('{"items": [');
    };
    const answer = await send(impatient.url, {
      target: "/webhooks",
      headers: { ...auth, Origin: "https://app.example" },
    });
    expect(answer.status).toBe(504);
    // A browser's page can read it, as every other problem of the proxy.
    expect(answer.headers["access-control-allow-origin"]).toBe("https://app.example");
    const problem = answer.json() as Problem;
    expect(problem.type).toBe("urn:org:payments-mock:problem:upstream-timeout");
    expect(problem.detail).toContain("sent no more of its body within 300 ms");
    expect(logged.at(-1)).toContain("→ upstream stalled mid-response");
  });

  it("answers a problem, not a dropped connection, when the upstream fails before the proxy has sent anything", async () => {
    const impatient = await start({ upstreamTimeoutMs: 300 });
    fake.answer = (_, response) => {
      response.writeHead(200, { "content-type": "application/json" }).flushHeaders();
    };
    const stalled = await send(impatient.url, { target: "/webhooks", headers: auth });
    expect(stalled.status).toBe(504);
    fake.answer = (_, response) => {
      response.writeHead(200, { "content-type": "application/json" }).write('{"items": [');
      setTimeout(() => response.socket?.destroy(), 50);
    };
    const broken = await send(proxy.url, { target: "/webhooks", headers: auth });
    expect(broken.status).toBe(502);
    expect((broken.json() as Problem).detail).toContain("closed the connection mid-response");
  });

  it("aborts the upstream request when the client disconnects", async () => {
    fake.answer = () => {};
    // An upstream time limit past the test's: only the abort can close the upstream request.
    const patient = await start({ upstreamTimeoutMs: 600_000 });
    const outgoing = request(`${patient.url}/webhooks`, { headers: auth, agent: false });
    const failed = once(outgoing, "error");
    outgoing.end();
    const [socket] = (await once(outgoing, "socket")) as [Socket];
    await expect.poll(() => fake.received.length, { interval: 10 }).toBeGreaterThan(0);
    // Gone, not half-closed: a FIN alone reads as a client still waiting for its answer (the
    // server keeps half-open connections), a reset as a client that left.
    socket.resetAndDestroy();
    await fake.received[0]?.closed;
    await failed;
  });

  it("keeps 100 requests in flight apart: every answer arrives, every violation is reported once", async () => {
    const template = await mockAnswer("/customers");
    fake.answer = (received, response) => {
      const size = Number(new URL(received.url, "http://x").searchParams.get("page_size"));
      const page = { ...template, items: [{ id: size }] };
      setTimeout(
        () =>
          response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(page)),
        size % 7,
      );
    };
    // No per-request limit (send's 10 s is for one request): a hundred at once on a loaded CI
    // take longer, and the test's own time limit stops a hang.
    const unbounded = new AbortController().signal;
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        send(proxy.url, {
          target: `/customers?page_size=${i + 1}`,
          headers: auth,
          signal: unbounded,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    answers.forEach((answer, i) => {
      expect((answer.json() as { items: { id: number }[] }).items[0]?.id).toBe(i + 1);
    });
    const idViolations = violations.filter((v) => v.field === "items.0.id");
    expect(idViolations).toHaveLength(100);
    expect(new Set(idViolations.map((v) => v.target)).size).toBe(100);
    expect(new Set(idViolations.map((v) => v.request)).size).toBe(100);
    for (const violation of idViolations) {
      expect(violation.excerpt).toBe(
        new URL(violation.target, "http://x").searchParams.get("page_size"),
      );
    }
  }, 60_000);
});
