import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inParallel } from "../src/in-parallel.ts";
import { call, onboard } from "../src/sandbox-clock.ts";
import { API_KEY, exampleDocuments } from "../src/servers/fixtures.ts";
import { startSandbox } from "../src/servers/stateful-peers.ts";
import { createServer } from "node:http";
import { webhookOnEveryTopic } from "../src/servers/receiver.ts";
const rx = createServer((q, r) => { q.resume(); q.on("end", () => r.writeHead(204).end()); });
await new Promise<void>((r) => rx.listen(0, "127.0.0.1", () => r()));
const rxUrl = `http://127.0.0.1:${(rx.address() as any).port}`;
const dir = mkdtempSync(join(tmpdir(), "tmp-reopen-"));
const seed = join(dir, "seed.json");
writeFileSync(seed, JSON.stringify({ customers: [], documents: exampleDocuments, webhooks: [webhookOnEveryTopic(rxUrl)] }));
const sandbox = await startSandbox(dir, seed);
try {
  const customers = await inParallel(1000, 10, (i) => onboard(sandbox.url, i));
  await inParallel(1000, 10, (i) => call(sandbox.url, "POST", `/customers/${customers[i]?.customer}/identifications`, { type: "Direct" }));
  const advance = call(sandbox.url, "POST", "/_sandbox/clock/advance", { seconds: 86400 });
  let done = false; void advance.then(() => { done = true; });
  const headers: number[] = []; const firstEvent: number[] = [];
  const t0 = performance.now();
  while (!done) {
    const s = performance.now();
    const ctl = new AbortController();
    const res = await fetch(`${sandbox.url}/_sandbox/events/stream`, { headers: { "X-API-Key": API_KEY, "Last-Event-ID": "0" }, signal: ctl.signal });
    headers.push(performance.now() - s);
    const reader = res.body!.getReader(); let text = "";
    while (!text.includes("\nid: ")) { const { value, done: d } = await reader.read(); if (d) break; text += new TextDecoder().decode(value); }
    firstEvent.push(performance.now() - s);
    ctl.abort();
    await new Promise((r) => setTimeout(r, 20));
  }
  const q = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return `n=${s.length} median ${s[s.length >> 1]?.toFixed(1)} p90 ${s[Math.floor(s.length * 0.9)]?.toFixed(1)} max ${s.at(-1)?.toFixed(1)}`; };
  console.log("advance ms", (performance.now() - t0).toFixed(0));
  console.log("headers", q(headers)); console.log("first event", q(firstEvent));
} finally { rx.close(); rx.closeAllConnections(); await sandbox.stop(); rmSync(dir, { recursive: true, force: true }); }
