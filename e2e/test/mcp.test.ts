// The packed @org/payments-mcp, installed in the consumer project: on every Node line its engines
// name, its `payments-mcp` command speaks MCP over stdio to the installed sandbox (the protocol's
// lines written as an MCP client writes them), lists every operation of both documents but the
// event stream, serves the documents it carries as resources, and creates a customer.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import {
  answersStream,
  listOperations,
  loadBundledSpec,
  loadSpec,
  testModeSpecPath,
} from "@org/payments-spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumer, NODE_LINES } from "./support/consumer.js";

const { app, node } = consumer();
// Every operation but a streamed answer (the event stream), which is no tool: a tool call waits
// for a whole answer.
const operations = [loadSpec(), loadBundledSpec(testModeSpecPath)].flatMap((doc) =>
  listOperations(doc)
    .filter((op) => !answersStream(doc, op))
    .map((op) => op.operationId),
);

let sandbox: ChildProcess | undefined;
let sandboxUrl = "";

beforeAll(async () => {
  const child = spawn(
    path.join(app, "node_modules/.bin/payments-mock"),
    ["--stateful", "--port", "0", "--quiet"],
    { cwd: app, stdio: ["ignore", "pipe", "pipe"] },
  );
  sandbox = child;
  sandboxUrl = await new Promise<string>((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = output.match(/http:\/\/127\.0\.0\.1:\d+/)?.[0];
      if (url) resolve(url);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => reject(new Error(`payments-mock exited (${code}): ${output}`)));
  });
}, 120_000);

afterAll(async () => {
  if (sandbox && sandbox.exitCode === null) {
    const exited = once(sandbox, "exit");
    sandbox.kill("SIGTERM");
    await exited;
  }
});

const request = (id: number, method: string, params: object = {}) =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`;

/** The installed command on `nodePath`: each request's answer, by id, once all are in. */
async function session(nodePath: string, lines: string[]): Promise<Map<number, unknown>> {
  const bin = path.join(app, "node_modules/@org/payments-mcp/bin/payments-mcp.mjs");
  // Every operation of both documents: the default lists the test mode's common ones only.
  const child = spawn(nodePath, [bin, "--toolsets", "all"], {
    cwd: app,
    env: {
      PATH: process.env.PATH ?? "",
      PAYMENTS_API_KEY: "e2e-key",
      PAYMENTS_BASE_URL: sandboxUrl,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const exited = once(child, "exit");
  const wanted = lines.filter((line) => line.includes('"id"')).length;
  const answers = new Map<number, unknown>();
  let output = "";
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  child.stdin?.write(lines.join(""));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const complete = output.split("\n").slice(0, -1);
      for (const line of complete) {
        const message = JSON.parse(line) as { id?: number };
        if (typeof message.id === "number") answers.set(message.id, message);
      }
      output = output.slice(output.lastIndexOf("\n") + 1);
      if (answers.size >= wanted) resolve();
    });
    exited.then(() => reject(new Error(`payments-mcp exited: ${errors}`)));
  });
  child.stdin?.end();
  await exited;
  expect(errors).not.toContain("e2e-key");
  return answers;
}

describe("the installed payments-mcp", () => {
  it.each(NODE_LINES["types and client"])(
    "on Node %i, lists every operation, reads its documents and creates a customer",
    async (major) => {
      const answers = await session(node(major), [
        request(1, "initialize", {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "e2e", version: "0" },
        }),
        `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`,
        request(2, "tools/list"),
        request(3, "resources/read", { uri: "payments://openapi/test-mode.yaml" }),
        request(4, "tools/call", {
          name: "createCustomer",
          arguments: { customer_type: "Person", email: `node${major}@example.com` },
        }),
      ]);
      const tools = (answers.get(2) as { result: { tools: { name: string }[] } }).result.tools;
      expect(tools.map((tool) => tool.name).sort()).toEqual([...operations].sort());
      const read = answers.get(3) as { result: { contents: { text: string }[] } };
      expect(read.result.contents[0]?.text).toMatch(/^openapi: 3\.1\.0/);
      const created = answers.get(4) as { result: { structuredContent: { email: string } } };
      expect(created.result.structuredContent.email).toBe(`node${major}@example.com`);
    },
  );
});
