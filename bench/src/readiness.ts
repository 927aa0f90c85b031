// Readiness: a partner's readiness report reads its counters, never its request log,
// so it costs the same after 100,000 requests as after 10; and keeping the counters costs a POST
// almost nothing. Both measured on the sandbox in its own process (memory store):
// - the report: GET /_sandbox/readiness p50 for a key with 100,000 requests made (a mix of
//   creates, first pages, later pages and refused requests) against a key with 10, the two
//   asked in turn, one at a time;
// - the counters: the sandbox process's CPU time for the same POST /customers with the counters
//   on and off (`countReadiness: false`), two processes fed equal rounds at the same time, so that
//   both meet the same machine load; the counts' batch writes included (each round waits for
//   them). The figure is the median of the rounds' ratios: a burst of load weighs one round.
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { inParallel } from "./in-parallel.ts";
import { partnerRequest } from "./partner-request.ts";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { forkReporting } from "./servers/fork-server.ts";
import { median, spreadOf } from "./stats.ts";

const MANY = 100_000;
const FEW = 10;
const CONNECTIONS = 10;
const REPORTS = 200;
const POST_ROUNDS = 40;
const POSTS_PER_ROUND = 1_000;
const TARGETS = { report: 3, counters: 1.05 };
/** Longer than the sandbox's batch of counts (100 ms): a round's counts are written within it. */
const SETTLE_MS = 250;

async function send(url: string, key: string, method: "GET" | "POST", path: string) {
  return (await partnerRequest(url, key, method, path)).status;
}

/** The `index`th request of a partner's traffic: creates, first pages, later pages, refusals. */
function traffic(url: string, key: string, index: number) {
  switch (index % 10) {
    case 0:
    case 1:
    case 2:
      return send(url, key, "POST", "/customers");
    case 3:
      return send(url, key, "GET", "/customers?page_size=1000");
    case 4:
      return send(url, key, "GET", "/autoramps/missing/external");
    default:
      return send(url, key, "GET", "/customers?page_size=10");
  }
}

async function timedReport(url: string, key: string) {
  const started = performance.now();
  const status = await send(url, key, "GET", "/_sandbox/readiness");
  if (status !== 200) throw new Error(`GET /_sandbox/readiness: HTTP ${status}`);
  return performance.now() - started;
}

async function startSandbox(mode: "on" | "off") {
  const { child, message, stop } = await forkReporting<{ url: string }>(
    new URL("./servers/readiness-sandbox.ts", import.meta.url),
    [mode],
    `the sandbox with its counters ${mode}`,
  );
  /** The process's CPU time so far, in ms, as it reads it itself (µs precision). */
  const cpuMs = async () => {
    const answer = once(child, "message") as Promise<[{ cpuUs: number }]>;
    child.send("cpu");
    const [{ cpuUs }] = await answer;
    return cpuUs / 1000;
  };
  return { url: message.url, cpuMs, stop };
}

async function measureReport(): Promise<Row> {
  const sandbox = await startSandbox("on");
  try {
    const few = randomUUID();
    const many = randomUUID();
    await inParallel(FEW, 1, (index) => traffic(sandbox.url, few, index));
    progress(`readiness: ${MANY.toLocaleString("en-US")} requests of one key`);
    await inParallel(MANY, CONNECTIONS, (index) => traffic(sandbox.url, many, index));
    const calls = await fetch(`${sandbox.url}/_sandbox/readiness`, {
      headers: { "X-API-Key": many },
    }).then(
      async (answer) =>
        (await answer.json()) as { coverage: { operations: Record<string, { calls: number }> } },
    );
    const counted = Object.values(calls.coverage.operations).reduce((sum, op) => sum + op.calls, 0);
    if (counted !== MANY) throw new Error(`the report counts ${counted} requests, not ${MANY}`);
    progress("readiness: timing the reports");
    const ofFew: number[] = [];
    const ofMany: number[] = [];
    for (let round = 0; round < REPORTS; round++) {
      // In turns, the first of each pair alternating.
      const pair = round % 2 === 0 ? [few, many] : [many, few];
      for (const key of pair)
        (key === few ? ofFew : ofMany).push(await timedReport(sandbox.url, key));
    }
    return {
      figure: `GET /_sandbox/readiness p50 for a key with ${MANY.toLocaleString("en-US")} requests made (${REPORTS} reports, one at a time)`,
      value: median(ofMany),
      spread: spreadOf(ofMany),
      unit: "ms",
      baselineLabel: `the same for a key with ${FEW} requests, in turns`,
      baseline: median(ofFew),
      baselineSpread: spreadOf(ofFew),
      target: {
        text: `≤ ×${TARGETS.report}`,
        met: median(ofMany) / median(ofFew) <= TARGETS.report,
      },
    };
  } finally {
    await sandbox.stop();
  }
}

async function measureCounters(): Promise<Row> {
  const on = await startSandbox("on");
  const off = await startSandbox("off");
  try {
    const cpu = { on: [] as number[], off: [] as number[] };
    // One key for each: its partner made once, in the warm-up.
    const key = randomUUID();
    const round = async (sandbox: typeof on) => {
      const before = await sandbox.cpuMs();
      await inParallel(POSTS_PER_ROUND, CONNECTIONS, () =>
        send(sandbox.url, key, "POST", "/customers"),
      );
      await sleep(SETTLE_MS);
      return ((await sandbox.cpuMs()) - before) / POSTS_PER_ROUND;
    };
    progress("readiness: warming up both sandboxes");
    for (const sandbox of [on, off]) await round(sandbox);
    for (let index = 0; index < POST_ROUNDS; index++) {
      progress(`readiness: POST rounds ${index + 1}/${POST_ROUNDS}`);
      // Both at once: whatever else loads the machine loads both alike.
      const [withCounters, without] = await Promise.all([round(on), round(off)]);
      cpu.on.push(withCounters);
      cpu.off.push(without);
    }
    // The median of the rounds' ratios: a burst of load on the machine weighs one round.
    const ratios = cpu.on.map((onMs, index) => onMs / (cpu.off[index] ?? Number.NaN));
    const ratio = median(ratios);
    const baseline = median(cpu.off) * 1000;
    return {
      figure: `the sandbox process's CPU time per POST /customers with the readiness counters on (one key, ${CONNECTIONS} connections, ${POST_ROUNDS} rounds of ${POSTS_PER_ROUND}, both at once; value: the baseline × the median ratio of a round to its pair's, ${spreadOf(
        ratios,
      )
        .map((r) => r.toFixed(2))
        .join("–")})`,
      value: baseline * ratio,
      spread: spreadOf(cpu.on.map((ms) => ms * 1000)),
      unit: "µs",
      baselineLabel: "the same with the counters off (median of its rounds)",
      baseline,
      baselineSpread: spreadOf(cpu.off.map((ms) => ms * 1000)),
      target: { text: `≤ ×${TARGETS.counters}`, met: ratio <= TARGETS.counters },
    };
  } finally {
    await on.stop();
    await off.stop();
  }
}

export async function measureReadiness(): Promise<Row[]> {
  return [await measureReport(), await measureCounters()];
}
