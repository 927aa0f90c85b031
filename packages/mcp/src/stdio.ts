/** The server over stdio: the MCP client starts it and speaks on its standard input and output. */
import type { Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { messageJson } from "./json-text.js";
import { contextOf, type PaymentsMcpOptions } from "./options.js";
import { redactedJson } from "./redact.js";
import { createMcpServer } from "./server.js";

export interface RunningStdioServer {
  /** Closes the session; the process can then exit. */
  close(): Promise<void>;
}

/**
 * The SDK's stdio transport, sending each message with the API key taken out. A message is
 * serialised once: the text checked for the key is the text written (the SDK's `send` would
 * serialise it again; an answer of a page of customers is a few kilobytes, twice), and a tool
 * answer's structured content is the text its text block already holds.
 */
class RedactingStdioTransport extends StdioServerTransport {
  readonly #output: Writable;
  readonly #apiKey: string;

  constructor(apiKey: string, output: Writable = process.stdout) {
    super(process.stdin, output);
    this.#output = output;
    this.#apiKey = apiKey;
  }

  override send(message: JSONRPCMessage): Promise<void> {
    const line = `${redactedJson(message, this.#apiKey, messageJson)}\n`;
    return new Promise((resolve) => {
      if (this.#output.write(line)) resolve();
      else this.#output.once("drain", resolve);
    });
  }
}

export async function serveStdio(options: PaymentsMcpOptions): Promise<RunningStdioServer> {
  const context = contextOf(options);
  // Asked now, so that the answer is there when the client lists the tools.
  void context.probe.state();
  const server = createMcpServer(context);
  await server.connect(new RedactingStdioTransport(context.apiKey));
  return { close: () => server.close() };
}
