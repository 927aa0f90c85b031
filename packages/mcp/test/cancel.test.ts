// A tool call the MCP client cancels (notifications/cancelled) stops its request to the API: the
// API sees the connection close, rather than the server waiting out the client's timeout.
import { EventEmitter, once } from "node:events";
import type { ServerResponse } from "node:http";
import { expect, it } from "vitest";
import { startCustomersApi } from "./support/servers.js";
import { startSession } from "./support/session.js";

// Without the cancellation, the request would end only at the client's own timeout (30 s): this
// test's limit is below it, and far above the second or so the test takes on a busy machine.
const BELOW_THE_CLIENT_TIMEOUT_MS = 20_000;

it("a cancelled call stops its request to the API, and the session goes on", {
  timeout: BELOW_THE_CLIENT_TIMEOUT_MS,
}, async (context) => {
  // An API that never answers GET /customers, and answers everything else 404.
  const held: ServerResponse[] = [];
  const arrivals = new EventEmitter();
  const api = await startCustomersApi((outgoing) => {
    held.push(outgoing);
    arrivals.emit("held", outgoing);
  });
  context.onTestFinished(() => api.stop());
  const session = await startSession(api.url);
  context.onTestFinished(() => session.close());

  const arrived = once(arrivals, "held") as Promise<[ServerResponse]>;
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
