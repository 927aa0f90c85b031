// The built server as an MCP client meets it: the bin, started over stdio by the SDK's own client,
// with everything it says on stdout (every protocol message) and stderr (its log) kept, so that
// a test can look for the API key in all of it.
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";
import { expect } from "vitest";
import { tools as definitions } from "../../src/generated/tools.ts";

export const bin = path.resolve(import.meta.dirname, "../../bin/payments-mcp.mjs");

/** The first message of a session, for a test that speaks the protocol by hand. */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "test", version: "0" },
  },
} as const;

/** A key no answer would hold by chance: finding it anywhere means it leaked. */
export const SECRET_KEY = "sk_test_9f8e7d6c5b4a-do-not-leak";

export interface Session {
  client: Client;
  /** Every message the server sent, as JSON text. */
  received: string[];
  /** What the server wrote to stderr. */
  stderr: () => string;
  tools: () => Promise<Tool[]>;
  /** Calls a tool and returns its result; a protocol error rejects. */
  call: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;
  /** Calls a tool that must succeed, checks its structured content against the operation's 2xx schema, and returns it. */
  ok: (name: string, args?: Record<string, unknown>) => Promise<Record<string, unknown>>;
  close: () => Promise<void>;
}

export async function startSession(
  baseUrl: string,
  {
    args = [],
    apiKey = SECRET_KEY,
    env = {},
  }: { args?: string[]; apiKey?: string; env?: Record<string, string> } = {},
): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, ...args],
    env: {
      PAYMENTS_API_KEY: apiKey,
      PAYMENTS_BASE_URL: baseUrl,
      PATH: process.env.PATH ?? "",
      ...env,
    },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "payments-mcp-tests", version: "0.0.0" });
  await client.connect(transport);
  const received: string[] = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message) => {
    received.push(JSON.stringify(message));
    deliver?.(message);
  };
  const tools = async () => (await client.listTools()).tools;
  const call = async (name: string, toolArgs: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: toolArgs })) as CallToolResult;
  return {
    client,
    received,
    stderr: () => stderr,
    tools,
    call,
    async ok(name, toolArgs = {}) {
      const result = await call(name, toolArgs);
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      const tool = definitions.find((candidate) => candidate.name === name);
      expectToFit(tool?.outputSchema, result.structuredContent, name);
      expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
      return result.structuredContent as Record<string, unknown>;
    },
    close: () => client.close(),
  };
}

/** The first text block of a result. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === "text" ? first.text : "";
}

/** Every text block of a result, joined. */
export function allTextOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
formats.default(ajv);
for (const name of ["int32", "int64", "uint32", "uint64"]) {
  ajv.addFormat(name, { type: "number", validate: () => true });
}

/** The structured content fits the tool's output schema (the SDK's client checks it too). */
function expectToFit(schema: unknown, content: unknown, name: string): void {
  expect(schema, `${name} has an output schema`).toBeDefined();
  const validate = ajv.compile(schema as object);
  const valid = validate(content);
  expect(valid, `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}
