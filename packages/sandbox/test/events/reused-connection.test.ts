// A delivery on a kept-alive connection that the receiver closes as it is reused never got there:
// the sender tries it once more, on a connection of its own, rather than record a failure.

import { createServer } from "node:http";
import type { Socket } from "node:net";
import { specPath } from "@org/payments-spec";
import { API_KEY, call, newKey } from "@org/payments-testing";
import { expect, it } from "vitest";
import { serveSandbox } from "../../src/index.js";

const WEBHOOK = "/webhooks/f3a7c1e5-9b4d-4f2a-8c6e-1a3b5d7f9e02";
const CUSTOMER = "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f";

it("sends a delivery once more on a new connection when the receiver closes the reused one", async () => {
  /** Each connection's requests, in order: a second one on a connection is cut off unanswered. */
  const requests = new Map<Socket, number>();
  const receiver = createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
    const seen = (requests.get(request.socket) ?? 0) + 1;
    requests.set(request.socket, seen);
    if (seen > 1) request.socket.destroy();
    else request.resume().on("end", () => response.writeHead(204).end());
  });
  await new Promise<void>((listening) => receiver.listen(0, "127.0.0.1", listening));
  const address = receiver.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  const sandbox = await serveSandbox({ spec: specPath, exampleKey: API_KEY });
  try {
    const url = `http://127.0.0.1:${address.port}/hook`;
    const pointed = await call(sandbox.url, "PATCH", WEBHOOK, { body: { enabled: true, url } });
    expect(pointed.status).toBe(200);
    const ping = () =>
      call(sandbox.url, "POST", `${WEBHOOK}/ping`, {
        body: { customer_id: CUSTOMER },
        headers: newKey(),
      });
    expect((await ping()).body).toBe(true);
    expect((await ping()).body).toBe(true);
    // The first connection carried the first delivery and was cut off on the second, which a
    // second connection carried.
    expect([...requests.values()]).toEqual([2, 1]);
    const webhook = (await call(sandbox.url, "GET", WEBHOOK)).body;
    expect(webhook.last_failure_reason).toBeUndefined();
  } finally {
    await sandbox.stop();
    receiver.closeAllConnections();
    await new Promise((closed) => receiver.close(closed));
  }
});
