// `payments-mcp --http`: the same server over Streamable HTTP, one session per client, answering
// only requests addressed to its own host.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { request } from "node:http";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHttp } from "../src/http.ts";
import { type RunningServer, startSandbox } from "./support/servers.js";
import { bin, INITIALIZE, SECRET_KEY } from "./support/session.js";

let sandbox: RunningServer;
let server: ChildProcess;
let endpoint = "";
let stderr = "";
const ipv6Loopback = Object.values(networkInterfaces())
  .flat()
  .some((address) => address?.address === "::1");

beforeAll(async () => {
  sandbox = await startSandbox();
  server = spawn(process.execPath, [bin, "--http", "--port", "0"], {
    env: {
      PATH: process.env.PATH ?? "",
      PAYMENTS_API_KEY: SECRET_KEY,
      PAYMENTS_BASE_URL: sandbox.url,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  endpoint = await new Promise<string>((resolve, reject) => {
    server.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = stderr.match(/Streamable HTTP at (http:\/\/\S+\/mcp)/)?.[1];
      if (url) resolve(url);
    });
    server.once("exit", (code) => reject(new Error(`payments-mcp exited (${code}): ${stderr}`)));
  });
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
  await sandbox?.stop();
});

/**
 * An initialize request (or `body`) to the server with this Host header (none if undefined), its
 * answer parsed.
 */
const send = (path: string, host: string | undefined, body = JSON.stringify(INITIALIZE)) =>
  new Promise<{ status: number; type: string | undefined; message: string; code?: number }>(
    (resolve, reject) => {
      const url = new URL(endpoint);
      const call = request(
        {
          host: url.hostname,
          port: url.port,
          path,
          method: "POST",
          setHost: false,
          headers: {
            ...(host === undefined ? {} : { host }),
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
        },
        (response) => {
          let answer = "";
          response.on("data", (chunk: Buffer) => {
            answer += chunk.toString();
          });
          response.on("end", () => {
            const parsed = (answer ? JSON.parse(answer) : {}) as {
              error?: { message?: string; code?: number };
            };
            resolve({
              status: response.statusCode ?? 0,
              type: response.headers["content-type"],
              message: parsed.error?.message ?? "",
              ...(parsed.error?.code !== undefined && { code: parsed.error.code }),
            });
          });
        },
      );
      call.on("error", reject);
      call.end(body);
    },
  );

describe("payments-mcp --http", () => {
  it("serves sessions at /mcp: tools listed and called", async () => {
    const clients = [0, 1].map(() => new Client({ name: "http-test", version: "0.0.0" }));
    for (const client of clients) {
      await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
    }
    for (const client of clients) {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("advanceClock");
    }
    const [first, second] = clients as [Client, Client];
    const created = await first.callTool({
      name: "createCustomer",
      arguments: { customer_type: "Person", email: "http@example.com" },
    });
    expect(created.isError).toBeFalsy();
    const listed = await second.callTool({
      name: "listCustomers",
      arguments: { search_term: "http@example.com" },
    });
    const items = (listed.structuredContent as { items: { id: string }[] }).items;
    expect(items.map((item) => item.id)).toContain(
      (created.structuredContent as { id: string }).id,
    );
    for (const client of clients) await client.close();
    expect(stderr).not.toContain(SECRET_KEY);
  });

  it("refuses another host (DNS rebinding) with a 403 naming it, and answers other paths 404", async () => {
    const refused = await send("/mcp", "attacker.example:80");
    expect(refused.status).toBe(403);
    expect(refused.type).toBe("application/json");
    expect(refused.message).toContain('"attacker.example:80" is not this server\'s');
    expect(refused.message).toContain(new URL(endpoint).host);
    expect((await send("/other", new URL(endpoint).host)).status).toBe(404);
  });

  it("answers a Host header that names no host and port, or none, with a 400 naming it", async () => {
    const { host } = new URL(endpoint);
    // Each reached the SDK's transport, which answered a 400 with an empty body.
    for (const bad of [
      "evil.example:99999",
      "a@b",
      `${host}@evil.example`,
      "x:y:z",
      "[::1",
      "%41",
    ]) {
      const answer = await send("/mcp", bad);
      expect(answer.status, bad).toBe(400);
      expect(answer.type, bad).toBe("application/json");
      expect(answer.message, bad).toContain(
        `The Host header ${JSON.stringify(bad)} is not a host and port`,
      );
      expect(answer.message, bad).toContain(endpoint);
    }
    for (const none of [undefined, ""]) {
      const answer = await send("/mcp", none);
      expect(answer.status).toBe(400);
      expect(answer.message).toContain("The request has no Host header");
    }
  });

  // As the README says: where stdio answers JSON that is no JSON-RPC message -32600, the SDK's
  // HTTP transport answers it as it answers a body that is not JSON, -32700.
  it("answers a body that is not a JSON-RPC message with the parse error and status 400, and one over 4 MB with 413", async () => {
    const { host } = new URL(endpoint);
    for (const body of ["not json", '{"jsonrpc":"2.0","id":7}', "[1]"]) {
      const answer = await send("/mcp", host, body);
      expect(answer.status, body).toBe(400);
      expect(answer.code, body).toBe(-32700);
    }
    const large = await send("/mcp", host, `"${"a".repeat(4 * 1024 * 1024)}"`);
    expect(large.status).toBe(413);
  });

  it("answers what Node's parser refuses with a JSON body, not a bare status", async () => {
    const url = new URL(endpoint);
    const raw = async (text: string) => {
      const socket = connect(Number(url.port), url.hostname);
      let answer = "";
      socket.on("data", (chunk: Buffer) => {
        answer += chunk.toString();
      });
      socket.on("error", () => undefined);
      socket.end(text);
      await once(socket, "close");
      const [head = "", body = ""] = answer.split("\r\n\r\n");
      return { head, message: (JSON.parse(body) as { error: { message: string } }).error.message };
    };
    const garbage = await raw("GARBAGE\r\n\r\n");
    expect(garbage.head).toMatch(/^HTTP\/1\.1 400 /);
    expect(garbage.head).toContain("content-type: application/json");
    expect(garbage.message).toContain("not valid HTTP/1.1");
    const large = await raw(
      `GET /mcp HTTP/1.1\r\nHost: ${url.host}\r\nX: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    expect(large.head).toMatch(/^HTTP\/1\.1 431 /);
    expect(large.message).toContain("headers are too large");
  });

  it("answers a request target that is no URL with a 404, and goes on serving", async () => {
    const url = new URL(endpoint);
    const socket = connect(Number(url.port), url.hostname);
    let answer = "";
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString();
    });
    socket.end(`POST http://[::1/mcp HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
    await once(socket, "close");
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
    expect(answer).toContain("the MCP endpoint is /mcp");
    const client = new Client({ name: "http-test", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it.skipIf(!ipv6Loopback)("on --host ::1, answers requests to its own URL", async () => {
    const running = await serveHttp({
      apiKey: SECRET_KEY,
      baseUrl: sandbox.url,
      host: "::1",
      port: 0,
      log: () => undefined,
    });
    const client = new Client({ name: "http-test", version: "0.0.0" });
    try {
      // The client sends `Host: [::1]:<port>`, which was refused as another host (403).
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
      await running.close();
    }
  });

  it("closes a session its client left without a DELETE, once it has had no request for a while", async () => {
    let closedOne: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => {
      closedOne = resolve;
    });
    const running = await serveHttp({
      apiKey: SECRET_KEY,
      baseUrl: sandbox.url,
      port: 0,
      sessionIdleMs: 50,
      log: (line) => {
        if (line.includes("closed a session")) closedOne();
      },
    });
    try {
      const client = new Client({ name: "http-test", version: "0.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(running.url));
      await client.connect(transport);
      const { sessionId } = transport;
      // Gone as most clients go: its GET stream closed, and no DELETE.
      await client.close();
      await closed;
      const answer = await fetch(running.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": String(sessionId),
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
      expect(answer.status).toBe(404);
    } finally {
      await running.close();
    }
  });
});
