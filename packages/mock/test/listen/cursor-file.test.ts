// listen's --cursor-file belongs to the key it was written for: it holds a salted HMAC of the key,
// never the key, and listen refuses it for another key, naming the file, rather than resume
// another partner's stream from its cursor. A file of the cursor alone (written before) still
// resumes, and becomes its key's at the next write.
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { listen } from "../../src/listen/listen.js";

const dir = mkdtempSync(join(tmpdir(), "listen-cursor-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY_A = "cursor-file-key-a-0123456789";
const KEY_B = "cursor-file-key-b-0123456789";

/** A sandbox's event stream: one event after the cursor asked for; the cursors asked for. */
async function eventStream(context: { onTestFinished(f: () => Promise<void>): void }) {
  const resumedAfter: (string | undefined)[] = [];
  const server = createServer((request, response) => {
    const after = request.headers["last-event-id"] as string | undefined;
    resumedAfter.push(after);
    const cursor = String(Number(after ?? 0) + 1);
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(`id: ${cursor}\nevent: CustomerCreated\ndata: {"id":"evt_${cursor}"}\n\n`);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  context.onTestFinished(
    () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  );
  const baseUrl = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  return { baseUrl, resumedAfter };
}

/** listen with `apiKey` on `cursorFile` until it has printed one event. */
async function listenOnce(baseUrl: URL, apiKey: string, cursorFile: string): Promise<string[]> {
  const stop = new AbortController();
  const lines: string[] = [];
  await listen({
    baseUrl,
    apiKey,
    topics: [],
    routes: new Map(),
    cursorFile,
    format: "json",
    write(line) {
      lines.push(line);
      if (lines.length === 2) stop.abort();
    },
    warn() {},
    signal: stop.signal,
  });
  return lines;
}

it("binds the file to its key without writing it, and refuses it for another key", async (context) => {
  const { baseUrl, resumedAfter } = await eventStream(context);
  const cursorFile = join(dir, "bound.cursor");
  // A file of the cursor alone, as listen wrote it before, resumes.
  writeFileSync(cursorFile, "5\n");
  await listenOnce(baseUrl, KEY_A, cursorFile);
  expect(resumedAfter).toEqual(["5"]);
  const written = readFileSync(cursorFile, "utf8");
  expect(written.split("\n")[0]).toBe("6");
  expect(written).toMatch(/^6\nkey-hmac-sha256 [0-9a-f]{32} [0-9a-f]{64}\n$/);
  expect(written).not.toContain(KEY_A);

  // Another key is refused, naming the file, and the file is left as it was.
  await expect(listenOnce(baseUrl, KEY_B, cursorFile)).rejects.toThrow(
    `the cursor file ${cursorFile} belongs to another API key`,
  );
  expect(resumedAfter).toEqual(["5"]);
  expect(readFileSync(cursorFile, "utf8")).toBe(written);

  // Its own key resumes from it.
  await listenOnce(baseUrl, KEY_A, cursorFile);
  expect(resumedAfter).toEqual(["5", "6"]);
  expect(readFileSync(cursorFile, "utf8").split("\n")[0]).toBe("7");
});
