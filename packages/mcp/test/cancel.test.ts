// A tool call the MCP client cancels (notifications/cancelled) stops its request to the API: the
// API sees the connection close, rather than the server waiting out the client's timeout.
import { once } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { startSession } from "./support/session.js";

// Without the cancellation, the request would end only at the client's own timeout (30 s): this
// test's limit is below it, and far above the second or so the test takes on a busy machine.
const BELOW_THE_CLIENT_TIMEOUT_MS = 20_000;

it("a cancelled call stops its request to the API, and the session goes on", {
  timeout: BELOW_THE_CLIENT_TIMEOUT_MS,
}, async (context) => {
  // An API that never answers GET /customers, and answers everything else 404.
  const held: ServerResponse[] = [];
  const server = createServer((incoming, outgoing) => {
    if (incoming.url?.startsWith("/customers")) {
      held.push(outgoing);
      server.emit("held", outgoing);
      return;
    }
    outgoing.writeHead(404, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  context.onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const session = await startSession(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  context.onTestFinished(() => session.close());

  const arrived = once(server, "held") as Promise<[ServerResponse]>;
  const cancel = new AbortController();
  const calling = session.client.callTool(
    { name: "listCustomers", arguments: { all_pages: true } },
    undefined,
    { signal: cancel.signal },
  );
  const [response] = await arrived;
  const closed = once(response, "close");
  cancel.abort(new Error("the user stopped it"));
  await expect(calling).rejects.toThrow("the user stopped it");
  await closed;
  expect(held).toHaveLength(1);

  // The session answers the next call.
  const tools = await session.client.listTools();
  expect(tools.tools.length).toBeGreaterThan(0);
});
