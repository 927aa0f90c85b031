// Failure rehearsal (fault rules, the rate limit, the request log) costs nothing while nothing is
// armed: the sandbox process's CPU time per request with no rule armed for any key, against the
// same sandbox started with --no-rehearsal, the same requests in alternated rounds (a first page
// of customers, a create). The request log records every request of the first: its cost is in
// the figure.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { seedCustomers } from "./sandbox-store.ts";
import { benchRequests, loadOptions, type RequestName } from "./servers/requests.ts";
import { type Peer, startSandbox } from "./servers/stateful-peers.ts";

const SEEDED = 100;
const CONNECTIONS = 10;
const ROUNDS = 6;
/**
 * Requests per slice: enough that the CPU time a slice reads (in the kernel's 10 ms ticks) is
 * about half a second, so that a tick either way moves it by 2 %, not 10 %.
 */
const SLICE: Record<RequestName, number> = { "GET /customers": 12_000, "POST /customers": 2_000 };
/** Unmeasured requests first, so that the JIT has compiled what they run. */
const WARM_UP: Record<RequestName, number> = { "GET /customers": 6_000, "POST /customers": 1_000 };
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
  const before = server.cpuMs();
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
  return server.cpuMs() - before;
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
    const cpu = new Map<string, number>();
    /** Each round's CPU ms, to show how far one round's ratio strays (a loaded machine's). */
    const rounds = new Map<string, number[]>();
    for (const request of requests) {
      for (const { name } of VARIANTS) {
        progress(`rehearsal: warming ${request} on ${name}`);
        await cpuOf(servers.get(name) as Peer, request, WARM_UP[request]);
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      // The variant that goes first alternates, so that a change of the machine's load hits both.
      const order = round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
      for (const request of requests) {
        for (const { name } of order) {
          progress(`rehearsal: round ${round + 1}/${ROUNDS}, ${request} on ${name}`);
          const ms = await cpuOf(servers.get(name) as Peer, request, SLICE[request]);
          cpu.set(`${name} ${request}`, (cpu.get(`${name} ${request}`) ?? 0) + ms);
          rounds.set(`${name} ${request}`, [...(rounds.get(`${name} ${request}`) ?? []), ms]);
        }
      }
    }
    const perRequest = (variant: Variant, request: RequestName) =>
      ((cpu.get(`${variant} ${request}`) ?? 0) * 1000) / (ROUNDS * SLICE[request]);
    return requests.map((request) => {
      const value = perRequest("rehearsal on, nothing armed", request);
      const baseline = perRequest("--no-rehearsal", request);
      const on = rounds.get(`rehearsal on, nothing armed ${request}`) ?? [];
      const off = rounds.get(`--no-rehearsal ${request}`) ?? [];
      const ratios = on.map((ms, round) => ms / (off[round] ?? Number.NaN));
      const spread = `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`;
      return {
        figure: `SQLite file sandbox ${request === "GET /customers" ? "GET /customers?page_size=10" : "POST /customers"} with failure rehearsal on and nothing armed for any key (every request in the request log): CPU time per request (its process, every thread, until ${CPU_TAIL_MS} ms after the last answer; ${CONNECTIONS} connections, ${ROUNDS} alternated rounds of ${SLICE[request].toLocaleString("en-US")}, each round's ratio ${spread})`,
        value,
        unit: "µs",
        baselineLabel: "the same sandbox started with --no-rehearsal, same rounds",
        baseline,
        target: { text: `≤ ×${TARGET}`, met: value / baseline <= TARGET },
      } satisfies Row;
    });
  } finally {
    for (const server of servers.values()) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
