// followEvents opens the stream again at once after a connection that delivered events, so a
// dropped connection holds nothing back, and backs off (100 ms, then twice as long each time)
// while the sandbox keeps failing; each connection resumes after the last event handled.
import { once } from "node:events";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it, type TestContext } from "vitest";
import { followEvents } from "../../src/listen/event-stream.js";

/** A stream served by `answer` on a free port, closed when the test ends; its base URL. */
async function streamServer(context: TestContext, answer: RequestListener): Promise<URL> {
  const server = createServer(answer);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  context.onTestFinished(() => new Promise<void>((done) => server.close(() => done())));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
}

/** Follows the stream at `baseUrl` from `after` until `onBroken` stops it; the bodies handled. */
async function follow(
  baseUrl: URL,
  after: string | undefined,
  onBroken: (delayMs: number, stop: () => void) => void,
): Promise<string[]> {
  const stop = new AbortController();
  const handled: string[] = [];
  await followEvents({
    baseUrl,
    apiKey: "event-stream-test-key",
    topics: [],
    after,
    signal: stop.signal,
    async onEvent(event) {
      handled.push(event.body);
    },
    onOpen() {},
    onGap() {},
    onBroken: (_reason, delayMs) => onBroken(delayMs, () => stop.abort()),
  });
  return handled;
}

it("reconnects at once after a stream that delivered, and backs off while it fails", async (context) => {
  const resumedAfter: (string | undefined)[] = [];
  const baseUrl = await streamServer(context, (request, response) => {
    const after = request.headers["last-event-id"] as string | undefined;
    resumedAfter.push(after);
    if (resumedAfter.length > 2) {
      response.writeHead(503, { "content-type": "application/json" }).end('{"title":"down"}');
      return;
    }
    const cursor = String(Number(after ?? 0) + 1);
    response.writeHead(200, { "content-type": "text/event-stream" });
    // One event, then the connection ends, as a cut network would end it.
    response.end(`id: ${cursor}\nevent: customer.created\ndata: {"cursor":${cursor}}\n\n`);
  });
  const delays: number[] = [];
  const handled = await follow(baseUrl, undefined, (delayMs, stop) => {
    delays.push(delayMs);
    if (delays.length === 4) stop();
  });

  expect(handled).toEqual(['{"cursor":1}', '{"cursor":2}']);
  expect(resumedAfter).toEqual([undefined, "1", "2", "2"]);
  expect(delays).toEqual([0, 0, 100, 200]);
});

it("resumes a stream that broke before its first event after the cursor it started at, not from a new now", async (context) => {
  const resumedAfter: (string | undefined)[] = [];
  const baseUrl = await streamServer(context, (request, response) => {
    resumedAfter.push(request.headers["last-event-id"] as string | undefined);
    response.writeHead(200, { "content-type": "text/event-stream" });
    if (resumedAfter.length === 1) {
      // Opened "from now on" at cursor 41, then cut before any event (a sandbox restarted).
      response.end("retry: 1000\n: the events after cursor 41\n\n");
      return;
    }
    // Events 42 and 43 were made while the client reconnected.
    const after = Number(resumedAfter.at(-1) ?? 43);
    const events = [42, 43].filter((cursor) => cursor > after);
    response.end(
      `retry: 1000\n: the events after cursor ${after}\n\n${events
        .map((cursor) => `id: ${cursor}\nevent: CustomerCreated\ndata: {"cursor":${cursor}}\n\n`)
        .join("")}`,
    );
  });
  const handled = await follow(baseUrl, undefined, (_delayMs, stop) => {
    if (resumedAfter.length === 2) stop();
  });

  expect(resumedAfter).toEqual([undefined, "41"]);
  expect(handled).toEqual(['{"cursor":42}', '{"cursor":43}']);
});

it("handles the events of a log that started again below its cursor (a sandbox kept in memory restarted)", async (context) => {
  const resumedAfter: (string | undefined)[] = [];
  const baseUrl = await streamServer(context, (request, response) => {
    resumedAfter.push(request.headers["last-event-id"] as string | undefined);
    response.writeHead(200, { "content-type": "text/event-stream" });
    const event = (cursor: number) =>
      `id: ${cursor}\nevent: CustomerCreated\ndata: {"cursor":${cursor},"run":${resumedAfter.length}}\n\n`;
    if (resumedAfter.length === 1) {
      response.end(`retry: 1000\n: the events after cursor 0\n\n${event(1)}${event(2)}${event(3)}`);
      return;
    }
    // Restarted with an empty log: cursor 3 is past its newest, so it starts at its first event.
    response.end(`retry: 1000\n: the events after cursor 0\n\n${event(1)}${event(2)}`);
  });
  const handled = await follow(baseUrl, "0", (_delayMs, stop) => {
    if (resumedAfter.length === 2) stop();
  });

  expect(resumedAfter).toEqual(["0", "3"]);
  expect(handled).toEqual([
    '{"cursor":1,"run":1}',
    '{"cursor":2,"run":1}',
    '{"cursor":3,"run":1}',
    '{"cursor":1,"run":2}',
    '{"cursor":2,"run":2}',
  ]);
});
