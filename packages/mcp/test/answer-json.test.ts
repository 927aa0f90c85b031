// A tool answer is serialised once on stdio: the structured content's JSON text is the text
// block's, written again in the message. What is written must be the message (the key taken out
// of errors only), and the server must hand the transport the very object the answer was made of.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { ServerContext } from "../src/options.ts";
import { redactMessage } from "../src/redact.ts";
import { createMcpServer } from "../src/server.ts";
import { jsonTextOf, messageJson } from "../src/structured-content-text.ts";

const page = () => ({
  items: [{ id: "c1", email: 'a"b@example.com', name: "Ünïcode \\ name", tags: [] }],
  cursor: "c1",
});

const response = (structured: Record<string, unknown>, id: string | number = 7) => ({
  jsonrpc: "2.0" as const,
  id,
  result: {
    content: [
      { type: "text", text: jsonTextOf(structured) },
      { type: "text", text: "request id r1" },
    ],
    structuredContent: structured,
  },
});

describe("messageJson", () => {
  it("writes a known structured content as its text, and the message stays the same", () => {
    for (const id of [7, 'a-"quoted"-id']) {
      const message = response(page(), id);
      const line = messageJson(message);
      expect(JSON.parse(line)).toEqual(message);
      expect(line).toContain(`"structuredContent":${JSON.stringify(page())}}}`);
    }
  });

  it("serialises every other message as JSON.stringify does", () => {
    const unknown = { ...response(page()), result: { content: [], structuredContent: page() } };
    const others: unknown[] = [
      unknown,
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } },
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
      { jsonrpc: "2.0", id: 2, error: { code: -32602, message: "No tool named y" } },
      { jsonrpc: "2.0", id: 3, result: {} },
      { jsonrpc: "2.0", id: 4, result: { structuredContent: null } },
      { ...response(page()), extra: true },
    ];
    for (const message of others) expect(messageJson(message)).toBe(JSON.stringify(message));
  });
});

describe("redactMessage then messageJson", () => {
  it("writes an answer as it is, even one whose data holds the key", () => {
    const key = "sk_test_plain-key-long-enough";
    const message = response({ items: [{ id: "c1", name: `Named ${key}` }] });
    expect(redactMessage(message, key)).toBe(message);
    expect(messageJson(redactMessage(message, key))).toBe(messageJson(message));
  });

  it.each([
    ["a key JSON leaves as it is", "sk_test_plain-key-long-enough"],
    ["a key JSON escapes", 'sk_"quoted"\\key-long-enough'],
  ])("takes %s out of an error's message and data", (_, key) => {
    const message = {
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32603, message: `failed with ${key}`, data: { cause: `header ${key}` } },
    };
    const line = messageJson(redactMessage(message, key));
    expect(line).not.toContain(key);
    expect(line).not.toContain(JSON.stringify(key).slice(1, -1));
    expect(JSON.parse(line).error).toEqual({
      code: -32603,
      message: "failed with [redacted]",
      data: { cause: "header [redacted]" },
    });
  });
});

describe("the server's tools/call answer", () => {
  it("reaches the transport as the object the API answered, its text the block's", async () => {
    const answered = page();
    const context: ServerContext = {
      apiKey: "sk_test_answer-json-key",
      send: async () => ({
        data: answered,
        response: new Response(null, { status: 200 }),
        requestId: undefined,
        replayed: false,
      }),
      probe: {
        state: async () => ({ kind: "sandbox", operations: new Set<string>() }),
      } as ServerContext["probe"],
      allowWrites: false,
      readOnly: false,
      toolsets: undefined,
      dynamic: false,
      keys: {} as ServerContext["keys"],
      baseUrl: "http://127.0.0.1:1",
      log: () => undefined,
      logCall: undefined,
    };
    const sent: JSONRPCMessage[] = [];
    let answer: () => void = () => undefined;
    const transport: Transport = {
      start: async () => undefined,
      close: async () => undefined,
      send: async (message) => {
        sent.push(message);
        answer();
      },
    };
    const server = createMcpServer(context);
    await server.connect(transport);
    const answered$ = new Promise<void>((resolve) => {
      answer = resolve;
    });
    transport.onmessage?.({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "listCustomers", arguments: { page_size: 10 } },
    });
    await answered$;
    await server.close();
    const message = sent[0] as unknown as {
      result: { structuredContent: unknown; content: unknown[] };
    };
    // Not a copy (the SDK's Server would hand on one parsed again): its JSON text is known.
    expect(message.result.structuredContent).toBe(answered);
    expect(message.result.content[0]).toEqual({ type: "text", text: JSON.stringify(answered) });
    expect(messageJson(message)).toContain(`"structuredContent":${JSON.stringify(answered)}}}`);
  });
});
