// The stdio transport's lines: messages split across chunks or sharing one, and what a client
// can send that is not a message (a line that is not JSON, JSON that is not JSON-RPC, absurd
// nesting, a line over the cap), each answered with the JSON-RPC error while the session goes on.
// The last test sends such lines to the built bin.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { MAX_LINE_BYTES, StdioLineTransport } from "../src/stdio-transport.ts";
import { bin, INITIALIZE, SECRET_KEY } from "./support/session.js";

const request = (id: number | string, extra = "") =>
  `{"method":"tools/list","params":{${extra}},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;

async function started() {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new StdioLineTransport(SECRET_KEY, input, output);
  const messages: unknown[] = [];
  const errors: string[] = [];
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error.message);
  await transport.start();
  let written = "";
  output.on("data", (chunk: Buffer) => {
    written += chunk.toString();
  });
  const answers = () =>
    written
      .split("\n")
      .filter(Boolean)
      .map(
        (line) => JSON.parse(line) as { id: unknown; error?: { code: number; message: string } },
      );
  return { input, transport, messages, errors, answers };
}

describe("StdioLineTransport", () => {
  it("reads messages split across chunks, several in a chunk, with CRLF and blank lines", async () => {
    const { input, messages, answers } = await started();
    const [first, second, third] = [request(1), request(2), request(3)];
    input.write(first.slice(0, 10));
    input.write(`${first.slice(10)}\r\n\n${second}\n${third.slice(0, 5)}`);
    input.write(`${third.slice(5)}\n`);
    expect(messages.map((message) => (message as { id: number }).id)).toEqual([1, 2, 3]);
    expect(answers()).toEqual([]);
  });

  it("answers a line that is not JSON with a parse error, and reads the next", async () => {
    const { input, messages, errors, answers } = await started();
    input.write(`not json\n${request(1)}\n`);
    expect(answers()).toEqual([
      {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32700, message: expect.stringContaining("not JSON") },
      },
    ]);
    expect(errors).toHaveLength(1);
    expect(messages).toHaveLength(1);
  });

  it("answers JSON that is not a JSON-RPC message as an invalid request, with its id", async () => {
    const { input, messages, answers } = await started();
    input.write(
      '{"jsonrpc":"2.0","id":7}\n[1,2]\n"text"\n{"jsonrpc":"1.0","id":"a","method":"x"}\n',
    );
    expect(answers().map(({ id, error }) => [id, error?.code])).toEqual([
      [7, -32600],
      [null, -32600],
      [null, -32600],
      ["a", -32600],
    ]);
    expect(messages).toEqual([]);
  });

  it("answers a request the SDK's Protocol would drop unanswered as an invalid request", async () => {
    const { input, messages, answers } = await started();
    input.write(
      [
        '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":5}',
        '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":[]}',
        '{"jsonrpc":"2.0","id":3,"method":"tools/list","extra":true}',
        '{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":5}}',
        '{"jsonrpc":"2.0","id":5.5,"method":"ping"}',
        '{"jsonrpc":"2.0","id":{},"method":"ping"}',
        "",
      ].join("\n"),
    );
    expect(answers().map(({ id, error }) => [id, error?.code])).toEqual([
      [1, -32600],
      [2, -32600],
      [3, -32600],
      [4, -32600],
      [5.5, -32600],
      [null, -32600],
    ]);
    expect(messages).toEqual([]);
  });

  it("reads a last line without its newline at the end of input, and closes once it is answered", async () => {
    const { input, transport, messages } = await started();
    let closed = false;
    transport.onclose = () => {
      closed = true;
    };
    const cancelled =
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}';
    input.end(`${request(2)}\n${cancelled}\n${request(3)}`);
    await once(input, "end");
    expect(messages.map((message) => (message as { id?: unknown }).id)).toEqual([2, undefined, 3]);
    // Request 2 was cancelled, and gets no answer; request 3 is still to be answered.
    expect(closed).toBe(false);
    await transport.send({ jsonrpc: "2.0", id: 3, result: {} });
    expect(closed).toBe(true);
  });

  it("survives absurd nesting", async () => {
    const { input, messages, answers } = await started();
    const depth = 200_000;
    input.write(`${"[".repeat(depth)}${"]".repeat(depth)}\n`);
    input.write(
      `{"jsonrpc":"2.0","method":"x","params":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}\n`,
    );
    input.write(`${request(1)}\n`);
    expect(answers()[0]?.error?.code).toBe(-32600);
    // The second is JSON-RPC; the SDK's Protocol judges its params.
    expect(messages).toHaveLength(2);
  });

  it("drops a line over the cap, answers it with the id at its end, and reads the next", async () => {
    const { input, messages, answers } = await started();
    const padding = `"pad":"${"x".repeat(MAX_LINE_BYTES)}"`;
    const huge = request(41, padding);
    for (let at = 0; at < huge.length; at += 1 << 20) input.write(huge.slice(at, at + (1 << 20)));
    input.write(`\n${request(42)}\n`);
    expect(answers()).toEqual([
      {
        jsonrpc: "2.0",
        id: 41,
        error: { code: -32600, message: expect.stringContaining("longer than 10485760 bytes") },
      },
    ]);
    expect(messages.map((message) => (message as { id: number }).id)).toEqual([42]);
  });

  it("writes each message as a line, the API key taken out of an error, a result as it is", async () => {
    const { transport } = await started();
    const output = new PassThrough();
    const sending = new StdioLineTransport(SECRET_KEY, new PassThrough(), output);
    await sending.send({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32603, message: `key ${SECRET_KEY}` },
    });
    await sending.send({ jsonrpc: "2.0", id: 2, result: { data: `key ${SECRET_KEY}` } });
    const [error, result] = (output.read().toString() as string).split("\n");
    expect(error).not.toContain(SECRET_KEY);
    expect(JSON.parse(error ?? "").error.message).toBe("key [redacted]");
    expect(JSON.parse(result ?? "").result.data).toBe(`key ${SECRET_KEY}`);
    await transport.close();
  });
});

/** payments-mcp on stdio, with what it prints so far. */
function startMcp() {
  const child = spawn(process.execPath, [bin], {
    // Nothing listens on port 9: the server need not reach the API to list its tools or to
    // answer a line it cannot read.
    env: {
      PATH: process.env.PATH ?? "",
      PAYMENTS_API_KEY: SECRET_KEY,
      PAYMENTS_BASE_URL: "http://127.0.0.1:9",
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const printed = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => {
    printed.stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    printed.stderr += chunk.toString();
  });
  return { child, printed, exited: once(child, "exit") };
}

it("payments-mcp answers what was sent before the client closed its input, then exits", async () => {
  const { child, printed, exited } = startMcp();
  // All at once, the last line without its newline, as `printf … | payments-mcp` sends it.
  child.stdin.end(`${JSON.stringify(INITIALIZE)}\n${request(2)}`);
  const [code] = await exited;
  expect(code).toBe(0);
  const ids = printed.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: unknown }).id);
  expect(ids).toEqual([1, 2]);
});

it("payments-mcp answers bad lines and a line over the cap over stdio, and goes on", async () => {
  const { child, printed, exited } = startMcp();
  const answered = (id: number) =>
    new Promise<void>((resolve) => {
      const look = () => {
        if (printed.stdout.split("\n").some((line) => line.includes(`"id":${id}`))) resolve();
        else child.stdout.once("data", look);
      };
      look();
    });
  child.stdin.write(
    `${JSON.stringify(INITIALIZE)}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`,
  );
  await answered(1);
  child.stdin.write(`not json\n${"x".repeat(MAX_LINE_BYTES + 1)}\n${request(2)}\n`);
  await answered(2);
  // Requests whose params break the protocol's schema: invalid params, and the server goes on.
  child.stdin.write(
    [
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"listCustomers","arguments":null}}`,
      `{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"arguments":{}}}`,
      `{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":5}}`,
      "",
    ].join("\n"),
  );
  await answered(5);
  child.stdin.end();
  await exited;

  const answers = printed.stdout
    .split("\n")
    .filter(Boolean)
    .map(
      (line) =>
        JSON.parse(line) as {
          id: unknown;
          result?: { tools?: unknown[] };
          error?: { code: number; message: string };
        },
    );
  expect(
    answers
      .filter((answer) => answer.error)
      .map(({ id, error }) => [id, error?.code])
      // The transport's own answers (no id) first, then the server's, which may come in any order.
      .sort(([a], [b]) => Number(a ?? -1) - Number(b ?? -1)),
  ).toEqual([
    [null, -32700],
    [null, -32600],
    [3, -32602],
    [4, -32602],
    [5, -32602],
  ]);
  const messageOf = (id: number) => answers.find((answer) => answer.id === id)?.error?.message;
  expect(messageOf(3)).toContain("tools/call: params.arguments: ");
  expect(messageOf(4)).toContain("prompts/get: params.name: ");
  expect(messageOf(5)).toContain("resources/read: params.uri: ");
  expect(answers.find((answer) => answer.id === 2)?.result?.tools?.length).toBeGreaterThan(0);
  expect(`${printed.stdout}${printed.stderr}`).not.toContain(SECRET_KEY);
});
