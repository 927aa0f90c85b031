// tailRequestLog against a request log served by the test: what it prints when the log it follows
// starts again with lower ids (a sandbox that keeps its data in memory restarted, a partner
// purged and made anew), which would otherwise hide every new request behind the last id seen.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { tailRequestLog } from "../../src/logs/tail.js";

const entry = (id: string, path: string) => ({
  id,
  at: "2026-05-04T10:30:00.000Z",
  method: "GET",
  path,
  operation_id: "listCustomers",
  status: 200,
  duration_ms: 1,
  idempotency_key: null,
  replayed: false,
  fault_id: null,
  fault: null,
  request_id: `request-${id}`,
});

it("follows a request log that started again with lower ids, printing its new requests", async (context) => {
  // Newest first, as GET /_sandbox/requests lists them.
  let log = [entry("3000001", "/before-1"), entry("3000000", "/before-0")];
  const server = createServer((_request, response) => {
    response
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ items: log, prev_cursor: null }));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  context.onTestFinished(() => new Promise<void>((done) => server.close(() => done())));

  const stop = new AbortController();
  const lines: string[] = [];
  const warnings: string[] = [];
  const tailing = tailRequestLog({
    baseUrl: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`),
    apiKey: "tail-test-key",
    filter: {},
    format: "text",
    intervalMs: 10,
    write: (line) => lines.push(line),
    warn: (line) => warnings.push(line),
    signal: stop.signal,
  });
  await expect.poll(() => lines.length).toBe(1); // the Ready line
  log = [entry("3000002", "/after-2"), ...log];
  await expect.poll(() => lines.length).toBe(2);
  // The sandbox restarted: its log starts again.
  log = [entry("1000001", "/restarted-1"), entry("1000000", "/restarted-0")];
  await expect.poll(() => lines.length).toBe(4);
  log = [entry("1000002", "/restarted-2"), ...log];
  await expect.poll(() => lines.length).toBe(5);
  stop.abort();
  await tailing;
  expect(lines.slice(1).map((line) => /GET {4}(\S+)/.exec(line)?.[1])).toEqual([
    "/after-2",
    "/restarted-0",
    "/restarted-1",
    "/restarted-2",
  ]);
  expect(warnings).toEqual([
    "the request log started again (the sandbox restarted, or the partner's data was purged): following it from its start",
  ]);
});
