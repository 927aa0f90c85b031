/** The server over stdio: the MCP client starts it and speaks on its standard input and output. */
import { contextOf, type PaymentsMcpOptions } from "./options.js";
import { createMcpServer } from "./server.js";
import { StdioLineTransport } from "./stdio-transport.js";

export interface RunningStdioServer {
  /** Closes the session; the process can then exit. */
  close(): Promise<void>;
  /**
   * Settles when the session ends: the client closed standard input and every request it sent
   * was answered, or `close()` was called.
   */
  closed: Promise<void>;
}

export async function serveStdio(options: PaymentsMcpOptions): Promise<RunningStdioServer> {
  const context = contextOf(options);
  // Asked now, so that the answer is there when the client lists the tools.
  void context.probe.state();
  const server = createMcpServer(context);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(new StdioLineTransport(context.apiKey));
  return { close: () => server.close(), closed };
}
