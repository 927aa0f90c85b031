// Failure rehearsal (fault rules, the rate limit, the request log) costs nothing while nothing is
// armed: the sandbox process's CPU time per request with no rule armed for any key, against the
// same sandbox started with --no-rehearsal (a first page of customers, a create). The request log
// records every request of the first: its cost is in the figure.
//
// The two are fed equal rounds at the same time, as the readiness counters are (readiness.ts), so
// that whatever else loads the machine loads both alike, and the figure is the median of the
// rounds' ratios: a burst of load weighs one round. Fed in turns, one after the other, rounds of
// the same requests on this 2-core machine read from ×0.52 to ×2.12 of each other.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { seedCustomers } from "./sandbox-store.ts";
import { benchRequests, loadOptions, type RequestName } from "./servers/requests.ts";
import { type Peer, startSandbox } from "./servers/stateful-peers.ts";
import { median, spreadOf } from "./stats.ts";

const SEEDED = 100;
const CONNECTIONS = 10;
/**
 * Unmeasured rounds first, the same as the measured ones: a sandbox's first rounds of GETs and
 * POSTs in turn cost up to twice its later ones (V8 compiles, SQLite's cache fills).
 */
const WARM_UP_ROUNDS = 4;
const ROUNDS = 30;
/**
 * Requests per slice, read to the nanosecond: about 150 ms of a sandbox's CPU, so that a garbage
 * collection or a write-ahead log checkpoint that falls in one slice weighs little (slices of 700
 * creates read from ×0.81 to ×1.81 of each other).
 */
const SLICE: Record<RequestName, number> = { "GET /customers": 6_000, "POST /customers": 2_000 };
/** How long after a slice's last answer the CPU time is read: past the request log's write (100 ms). */
const CPU_TAIL_MS = 300;
const TARGET = 1.05;
const PATHS: Record<RequestName, string> = {
  "GET /customers": "/customers?page_size=10",
  "POST /customers": "/customers",
};

type Variant = "rehearsal on, nothing armed" | "--no-rehearsal";
const VARIANTS: { name: Variant; flags: string[] }[] = [
  { name: "rehearsal on, nothing armed", flags: [] },
  { name: "--no-rehearsal", flags: ["--no-rehearsal"] },
];

/** `amount` requests, CONNECTIONS at a time; resolves to the server's CPU ms they took. */
async function cpuOf(server: Peer, name: RequestName, amount: number): Promise<number> {
  const sent = benchRequests[name];
  const before = server.threadsCpuMs();
  await new Promise<void>((resolve, reject) => {
    autocannon(
      {
        url: `${server.url}${PATHS[name]}`,
        connections: CONNECTIONS,
        amount,
        ...loadOptions(sent),
      },
      (error, result) => {
        const failed = error ? 1 : result.non2xx + result.errors + result.timeouts;
        if (failed > 0) reject(new Error(`${name}: ${failed} requests failed or were not 2xx`));
        else resolve();
      },
    );
  });
  await new Promise((resolve) => setTimeout(resolve, CPU_TAIL_MS));
  return server.threadsCpuMs() - before;
}

export async function measureRehearsal(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "payments-bench-rehearsal-"));
  const servers = new Map<Variant, Peer>();
  try {
    const seed = join(dir, "seed.json");
    writeFileSync(seed, JSON.stringify({ customers: seedCustomers(SEEDED) }));
    for (const { name, flags } of VARIANTS) {
      const home = join(dir, name.replace(/[^a-z]+/g, "-"));
      mkdirSync(home);
      servers.set(name, await startSandbox(home, seed, undefined, flags));
    }
    const requests = Object.keys(SLICE) as RequestName[];
    /** Each measured round's CPU µs per request, by variant and request. */
    const perRequest = new Map<string, number[]>();
    for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
      const measured = round >= WARM_UP_ROUNDS;
      const label = measured
        ? `round ${round - WARM_UP_ROUNDS + 1}/${ROUNDS}`
        : `warm-up round ${round + 1}/${WARM_UP_ROUNDS}`;
      for (const request of requests) {
        progress(`rehearsal: ${label}, ${request} on both`);
        // Both at once: whatever else loads the machine loads both alike. The one whose load
        // starts first alternates.
        const order = round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
        const both = await Promise.all(
          order.map(({ name }) => cpuOf(servers.get(name) as Peer, request, SLICE[request])),
        );
        if (!measured) continue;
        order.forEach(({ name }, index) => {
          const key = `${name} ${request}`;
          perRequest.set(key, [
            ...(perRequest.get(key) ?? []),
            ((both[index] as number) * 1000) / SLICE[request],
          ]);
        });
      }
    }
    return requests.map((request) => {
      const on = perRequest.get(`rehearsal on, nothing armed ${request}`) ?? [];
      const off = perRequest.get(`--no-rehearsal ${request}`) ?? [];
      const ratios = on.map((us, round) => us / (off[round] ?? Number.NaN));
      const ratio = median(ratios);
      const baseline = median(off);
      const [low, high] = spreadOf(ratios).map((r) => r.toFixed(2));
      return {
        figure: `SQLite file sandbox ${request === "GET /customers" ? "GET /customers?page_size=10" : "POST /customers"} with failure rehearsal on and nothing armed for any key (every request in the request log): CPU time per request (its process, every thread, until ${CPU_TAIL_MS} ms after the last answer; ${CONNECTIONS} connections each, ${ROUNDS} rounds of ${SLICE[request].toLocaleString("en-US")}, both at once; value: the baseline × the median ratio of a round to its pair's, ${low}–${high})`,
        value: baseline * ratio,
        spread: spreadOf(on),
        unit: "µs",
        baselineLabel: "the same sandbox started with --no-rehearsal (median of its rounds)",
        baseline,
        baselineSpread: spreadOf(off),
        target: { text: `≤ ×${TARGET}`, met: ratio <= TARGET },
      } satisfies Row;
    });
  } finally {
    for (const server of servers.values()) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
