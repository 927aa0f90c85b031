// listen() against a stream served by the test: a --cursor-file keeps the position the stream
// started at even before the first event, so that a listen stopped before any event and started
// again gets the events committed while it was down, as the command line guide says.
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { listen } from "../../src/listen/listen.js";

it("keeps the cursor the stream started at in --cursor-file before any event", async (context) => {
  const dir = mkdtempSync(join(tmpdir(), "listen-cursor-"));
  context.onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const cursorFile = join(dir, "listen.cursor");
  const open = new Set<ServerResponse>();
  const server = createServer((_request, response) => {
    open.add(response);
    // Opened "from now on" at cursor 41; no event comes.
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write("retry: 1000\n: the events after cursor 41\n\n");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  context.onTestFinished(() => {
    for (const response of open) response.destroy();
    return new Promise<void>((done) => server.close(() => done()));
  });

  const stop = new AbortController();
  const lines: string[] = [];
  const listening = listen({
    baseUrl: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`),
    apiKey: "listen-test-key",
    topics: [],
    routes: new Map(),
    cursorFile,
    format: "text",
    write: (line) => lines.push(line),
    warn: () => {},
    signal: stop.signal,
  });
  await expect.poll(() => lines.length).toBe(1);
  // The cursor, then the line that binds the file to its key (never the key itself).
  await expect
    .poll(() => readFileSync(cursorFile, { encoding: "utf8", flag: "a+" }))
    .toMatch(/^41\nkey-hmac-sha256 [0-9a-f]{32} [0-9a-f]{64}\n$/);
  expect(readFileSync(cursorFile, "utf8")).not.toContain("listen-test-key");
  stop.abort();
  await listening;
});
