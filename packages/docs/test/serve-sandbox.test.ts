// The docs server beside a sandbox: it forwards /sandbox/… to it (so the console calls the page's
// own origin), and serves the built page set up for it. Against a real sandbox started here.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { startMock } from "@org/payments-mock";
import { rawExchange, startTestSandbox, type TestServer } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { distDir } from "../src/built-paths.ts";
import { INIT_SCRIPT, STATIC_CONNECT_SRC } from "../src/self-contained.ts";
import { initScriptWithSandbox, pageWithSandbox } from "../src/served-page.ts";
import { startStaticServer } from "../src/static-server.ts";

let sandbox: TestServer;
let docs: Awaited<ReturnType<typeof startStaticServer>>;

beforeAll(async () => {
  sandbox = await startTestSandbox((state) => startMock({ stateful: true, state }));
  docs = await startStaticServer({ root: distDir, sandbox: sandbox.url });
}, 60_000);

afterAll(async () => {
  await docs?.close();
  await sandbox?.stop();
});

const key = { "X-API-Key": "serve-test" };
const json = { "Content-Type": "application/json; charset=utf-8" };

describe("the page the docs server serves beside a sandbox", () => {
  it("lets the page connect to its own origin only and points the console at the proxy", async () => {
    const answer = await fetch(docs.url);
    const html = await answer.text();
    expect(Number(answer.headers.get("content-length"))).toBe(Buffer.byteLength(html));
    const policy = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    expect(policy).toContain("connect-src 'self';");
    expect(policy).not.toContain("127.0.0.1");
    expect(html).toContain('<meta name="payments-sandbox-proxy" content="sandbox/">');
    expect(html).toContain(`<meta name="payments-sandbox-url" content="${sandbox.url}">`);
  });

  it("shows the sandbox's URL in the samples", async () => {
    const script = await fetch(new URL(INIT_SCRIPT, docs.url)).then((answer) => answer.text());
    expect(script).toContain(`\${PAYMENTS_BASE_URL:-${sandbox.url}}`);
    expect(script).toContain(`process.env.PAYMENTS_BASE_URL ?? \\"${sandbox.url}\\"`);
  });
});

describe("the proxy to the sandbox", () => {
  const proxied = (apiPath: string) => new URL(`sandbox${apiPath}`, docs.url);

  it("forwards method, path, query, headers and body, and answers with the sandbox's answer", async () => {
    const subPartner = "5a9d2e71-3c4b-4f6a-8d1e-2b7c9f0a3e58";
    const created = await fetch(proxied("/customers"), {
      method: "POST",
      headers: {
        ...key,
        ...json,
        "IDEMPOTENCY-KEY": crypto.randomUUID(),
        "X-SUB-PARTNER-ID": subPartner,
      },
      body: JSON.stringify({ customer_type: "Person", email: "proxy@example.com" }),
    });
    expect(created.status).toBe(200);
    const customer = (await created.json()) as { id: string };

    const listed = await fetch(proxied("/customers?search_term=proxy%40example"), {
      headers: { ...key, "X-SUB-PARTNER-ID": subPartner },
    });
    expect(listed.status).toBe(200);
    const page = (await listed.json()) as { items: { id: string }[] };
    expect(page.items.map((item) => item.id)).toEqual([customer.id]);

    const direct = await fetch(`${sandbox.url}/customers?search_term=proxy%40example`, {
      headers: key,
    });
    expect(((await direct.json()) as { items: unknown[] }).items).toHaveLength(1);
  });

  it("passes the sandbox's problems through, and its control routes", async () => {
    const refused = await fetch(proxied("/customers"));
    expect(refused.status).toBe(401);
    expect(refused.headers.get("content-type")).toContain("application/json");
    expect(await refused.json()).toMatchObject({ errors: [{ field: "X-API-Key" }] });

    const events = await fetch(proxied("/_sandbox/events"), { headers: key });
    expect(events.status).toBe(200);
    expect(await events.json()).toHaveProperty("items");
  });

  it("passes on a request with two API keys as one the sandbox refuses, never as a third partner", async () => {
    const answer = await rawExchange(
      docs.url,
      "GET /sandbox/customers HTTP/1.1\r\nHost: x\r\nX-API-Key: serve-a\r\nX-API-Key: serve-b\r\nConnection: close\r\n\r\n",
    );
    expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
    expect(
      JSON.parse(answer.slice(answer.indexOf("{"), answer.lastIndexOf("}") + 1)),
    ).toMatchObject({
      errors: [{ location: "header", field: "X-API-Key", rule: "unique" }],
    });
  });

  it("forwards to the sandbox only, whatever host the path names", async () => {
    const hits: string[] = [];
    const other = createServer((req, res) => {
      hits.push(req.url ?? "");
      res.end("another host");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const { port } = other.address() as AddressInfo;
    try {
      const answer = await fetch(new URL(`sandbox//127.0.0.1:${port}/x`, docs.url), {
        headers: key,
      });
      expect(answer.status).toBe(404);
      expect(await answer.json()).toMatchObject({ status: 404 });
      expect(hits).toEqual([]);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it("cuts the console's answer short when the sandbox's is, rather than leave it waiting", async () => {
    const cutting = createServer((_req, res) => {
      res.writeHead(200, { "Content-Length": "100" });
      res.write("part of it", () => res.socket?.destroy());
    });
    await new Promise<void>((resolve) => cutting.listen(0, "127.0.0.1", resolve));
    const { port } = cutting.address() as AddressInfo;
    const docsOfCut = await startStaticServer({
      root: distDir,
      sandbox: `http://127.0.0.1:${port}`,
    });
    try {
      const answer = await fetch(new URL("sandbox/customers", docsOfCut.url), {
        signal: AbortSignal.timeout(10_000),
      });
      // "terminated" (the connection closed), not a TimeoutError (still waiting).
      await expect(answer.text()).rejects.toMatchObject({ name: "TypeError" });
    } finally {
      await docsOfCut.close();
      await new Promise((resolve) => cutting.close(resolve));
    }
  }, 20_000);

  it("answers 502 with a problem when the sandbox cannot be reached", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const orphan = await startStaticServer({ root: distDir, sandbox: `http://127.0.0.1:${port}` });
    try {
      const answer = await fetch(new URL("sandbox/customers", orphan.url), { headers: key });
      expect(answer.status).toBe(502);
      expect(await answer.json()).toMatchObject({
        type: "urn:org:payments-docs:problem:upstream-unreachable",
        status: 502,
      });
    } finally {
      await orphan.close();
    }
  });
});

describe("a page the console cannot be set up in", () => {
  let root: string;
  let server: Awaited<ReturnType<typeof startStaticServer>>;

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), "docs-serve-sandbox-"));
    mkdirSync(path.join(root, "assets"));
    writeFileSync(path.join(root, "index.html"), "<h1>not a built page</h1>");
    server = await startStaticServer({ root, sandbox: sandbox.url });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("answers 500 saying why, and goes on serving", async () => {
    const answer = await fetch(server.url);
    expect(answer.status).toBe(500);
    expect(await answer.text()).toContain("rebuild it");
    expect((await fetch(new URL("missing.js", server.url))).status).toBe(404);
  });
});

describe("pageWithSandbox and initScriptWithSandbox", () => {
  const page = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; ${STATIC_CONNECT_SRC}; object-src 'none'"><meta name="payments-sandbox-url" content="http://127.0.0.1:4010"><meta name="payments-sandbox-proxy" content="">`;

  it("narrows connect-src to the page's origin and fills in the sandbox", () => {
    expect(pageWithSandbox(page, 'http://h:1/"x')).toBe(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; connect-src 'self'; object-src 'none'"><meta name="payments-sandbox-url" content="http://h:1/&quot;x"><meta name="payments-sandbox-proxy" content="sandbox/">`,
    );
  });

  it("replaces the samples' default URL, escaped for the script's strings", () => {
    const script =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
      'const d = {"source":"curl \\"${PAYMENTS_BASE_URL:-http://127.0.0.1:4010}/x\\""};';
    expect(initScriptWithSandbox(script, "http://127.0.0.1:4010", "http://[::1]:9")).toBe(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
      'const d = {"source":"curl \\"${PAYMENTS_BASE_URL:-http://[::1]:9}/x\\""};',
    );
  });
});
