// A stopped sandbox leaves nothing running in its process: the connections its webhook deliveries
// kept alive close with it, and no socket or timer of its own is left behind (the tests share
// their workers' modules, so a leak would outlive the test file that made it).

import { createServer, type Server } from "node:http";
import { specPath } from "@org/payments-spec";
import { API_KEY, call, newKey } from "@org/payments-testing";
import { expect, it } from "vitest";
import { serveSandbox } from "../../src/index.js";

const WEBHOOK = "/webhooks/f3a7c1e5-9b4d-4f2a-8c6e-1a3b5d7f9e02";
const CUSTOMER = "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f";

/** The process's sockets, servers and timers, by kind (Node's view of what keeps it alive). */
function resources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) {
    if (/^(TCPSocketWrap|TCPServerWrap|Timeout)$/.test(kind))
      counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/** A receiver that answers every delivery 204 and keeps the connection open for the next. */
async function keepAliveReceiver(): Promise<{ server: Server; url: string }> {
  const server = createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
    request.resume().on("end", () => response.writeHead(204).end());
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { server, url: `http://127.0.0.1:${address.port}` };
}

/**
 * `read()` once `done` holds for it, or its last value after about 10 s. It waits with a timer of
 * its own that has fired by the time `read` runs, unlike expect.poll's, so `read` may count the
 * process's timers.
 */
async function settled<T>(read: () => T | Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let tries = 0; tries < 200 && !done(value); tries++) {
    await new Promise((wake) => setTimeout(wake, 50));
    value = await read();
  }
  return value;
}

/**
 * What `now` holds beyond `before`, by kind. Other test files share the worker, so what they
 * left may close meanwhile; only what is new counts.
 */
function added(before: Record<string, number>, now: Record<string, number>) {
  return Object.fromEntries(
    Object.entries(now)
      .map(([kind, count]) => [kind, count - (before[kind] ?? 0)] as const)
      .filter(([, extra]) => extra > 0),
  );
}

const connectionsOf = (server: Server) =>
  new Promise<number>((resolve, reject) =>
    server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );

/** A sandbox that delivers a Ping to `url` and is stopped. */
async function deliverOnceAndStop(url: string, whileRunning?: () => Promise<void>) {
  const sandbox = await serveSandbox({ spec: specPath, exampleKey: API_KEY });
  try {
    const pointed = await call(sandbox.url, "PATCH", WEBHOOK, { body: { enabled: true, url } });
    expect(pointed.status).toBe(200);
    const ping = await call(sandbox.url, "POST", `${WEBHOOK}/ping`, {
      body: { customer_id: CUSTOMER },
      headers: newKey(),
    });
    expect(ping.body).toBe(true);
    await whileRunning?.();
  } finally {
    await sandbox.stop();
  }
}

it("closes its deliveries' kept-alive connections, and leaves no socket or timer, once stopped", async () => {
  const receiver = await keepAliveReceiver();
  try {
    // A first sandbox makes what the process keeps for every sandbox (the engines, read once).
    await deliverOnceAndStop(`${receiver.url}/first`);
    expect(
      await settled(
        () => connectionsOf(receiver.server),
        (n) => n === 0,
      ),
    ).toBe(0);
    const before = resources();
    await deliverOnceAndStop(`${receiver.url}/hook`, async () => {
      // The delivery's connection is kept open for the next one while the sandbox runs.
      expect(await connectionsOf(receiver.server)).toBe(1);
    });
    expect(
      await settled(
        () => connectionsOf(receiver.server),
        (n) => n === 0,
      ),
    ).toBe(0);
    const after = await settled(resources, (now) => Object.keys(added(before, now)).length === 0);
    expect(added(before, after)).toEqual({});
  } finally {
    await new Promise((closed) => receiver.server.close(closed));
  }
});
