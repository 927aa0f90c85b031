// The sandbox's stores under load, through the built CLI as users run it: create latency with
// 100 and with 100,000 customers stored (SQLite file), list and search at both sizes, the SQLite
// sandbox's throughput against the in-memory one, and two processes on one Postgres against one.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createDatabase, startPostgres } from "@org/payments-testing";
import { partnerRequest } from "./partner-request.ts";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { API_KEY } from "./servers/fixtures.ts";
import { median } from "./stats.ts";

const SMALL = 100;
const LARGE = 100_000;
const CONNECTIONS = 10;
/** Requests per measurement: counted, not timed, so each store sees the same number of rows added. */
const WARM_UP_REQUESTS = 300;
const MEASURED_REQUESTS = 2_000;
/** Fewer for the reads, whose search scans the sub-partner's customers. */
const MEASURED_READS = 300;
/** Rounds of the SQLite-against-memory throughput, each of four slices: memory, file, file, memory. */
const THROUGHPUT_ROUNDS = 5;
const SLICE_REQUESTS = 1_000;

const cli = join(
  dirname(createRequire(import.meta.url).resolve("@org/payments-mock/package.json")),
  "dist/cli.mjs",
);

interface Sandbox {
  url: string;
  /** The process's resident memory now, in bytes (Linux's /proc). */
  rssBytes(): number;
  stop(): Promise<void>;
}

/** A process's resident set size, from /proc/<pid>/status (kB there). */
function rssOf(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kilobytes = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  if (kilobytes === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kilobytes) * 1024;
}

export async function startCli(args: string[]): Promise<Sandbox> {
  const child: ChildProcess = spawn(
    process.execPath,
    // The bench's key is the example key: its partner holds the seed.
    [cli, "--port", "0", "--quiet", "--stateful", "--example-key", API_KEY, ...args],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const exited = once(child, "exit");
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    exited.then(() => reject(new Error(`payments-mock ${args.join(" ")} exited: ${output}`)));
  });
  return {
    url,
    rssBytes: () => rssOf(child.pid),
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}

/** `count` customers as the sandbox's seed (or another mock's data) holds them. */
export function seedCustomers(count: number) {
  const at = new Date().toISOString();
  return Array.from({ length: count }, (_, index) => ({
    id: randomUUID(),
    created_at: at,
    updated_at: at,
    customer_type: "Person",
    email: `customer${index}@example.com`,
    name: `Customer ${index}`,
    partner_id: "0b7e3c52-6d1f-4a8e-9c3b-5f2a7d9e1c40",
    identification_ids: [],
    signing_ids: [],
    status: "IdentificationRequired",
  }));
}

/** A seed file of `count` customers (the sandbox's seed takes any number). */
function seedFile(dir: string, count: number): string {
  const path = join(dir, `seed-${count}.json`);
  writeFileSync(path, JSON.stringify({ customers: seedCustomers(count) }));
  return path;
}

interface Load {
  p50: number;
  rps: number;
}

/**
 * `amount` requests spread over `urls`, CONNECTIONS at a time per URL, each request timed.
 * (autocannon's `amount` runs end on whole seconds, too coarse for runs this short.)
 */
async function load(
  urls: string[],
  path: string,
  method: "GET" | "POST",
  amount: number,
): Promise<Load> {
  const latencies: number[] = [];
  let sent = 0;
  const worker = async (url: string) => {
    while (sent < amount) {
      sent++;
      const started = performance.now();
      const response = await partnerRequest(url, API_KEY, method, path);
      if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status}`);
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(urls.flatMap((url) => Array.from({ length: CONNECTIONS }, () => worker(url))));
  return { p50: median(latencies), rps: (amount * 1000) / (performance.now() - started) };
}

async function measured(urls: string[], path: string, method: "GET" | "POST"): Promise<Load> {
  const amount = method === "GET" ? MEASURED_READS : MEASURED_REQUESTS;
  await load(urls, path, method, Math.min(WARM_UP_REQUESTS, amount));
  return load(urls, path, method, amount);
}

interface Sized {
  create: Load;
  list: Load;
  search: Load;
}

async function sqliteAt(dir: string, count: number): Promise<Sized> {
  progress(`sandbox stores: SQLite file with ${count.toLocaleString("en-US")} customers`);
  const sandbox = await startCli([
    "--state",
    join(dir, `store-${count}.db`),
    "--seed",
    seedFile(dir, count),
  ]);
  try {
    return {
      list: await measured([sandbox.url], "/customers?page_size=10", "GET"),
      search: await measured(
        [sandbox.url],
        `/customers?search_term=customer${count - 7}%40`,
        "GET",
      ),
      create: await measured([sandbox.url], "/customers", "POST"),
    };
  } finally {
    await sandbox.stop();
  }
}

/**
 * Creates on the in-memory and the SQLite sandbox, both running, in alternated slices (memory,
 * file, file, memory in each round), so that a change in the machine's load hits both alike;
 * both add the same rows. Each store's throughput is its requests over the time they took.
 */
async function alternatedCreates(memoryArgs: string[], sqliteArgs: string[]) {
  const [memory, sqlite] = await Promise.all([startCli(memoryArgs), startCli(sqliteArgs)]);
  try {
    const time = async (sandbox: Sandbox, amount: number) =>
      (amount * 1000) / (await load([sandbox.url], "/customers", "POST", amount)).rps;
    await time(memory, WARM_UP_REQUESTS);
    await time(sqlite, WARM_UP_REQUESTS);
    const totals = { memory: 0, sqlite: 0 };
    const roundRatios: number[] = [];
    for (let round = 1; round <= THROUGHPUT_ROUNDS; round++) {
      progress(
        `sandbox stores: in memory against a SQLite file, round ${round}/${THROUGHPUT_ROUNDS}`,
      );
      const memoryFirst = await time(memory, SLICE_REQUESTS);
      const sqliteTime =
        (await time(sqlite, SLICE_REQUESTS)) + (await time(sqlite, SLICE_REQUESTS));
      const memoryTime = memoryFirst + (await time(memory, SLICE_REQUESTS));
      totals.memory += memoryTime;
      totals.sqlite += sqliteTime;
      // Throughput ratio: the same requests in less time is more.
      roundRatios.push(memoryTime / sqliteTime);
    }
    const requests = THROUGHPUT_ROUNDS * 2 * SLICE_REQUESTS * 1000;
    return {
      memory: { rps: requests / totals.memory },
      sqlite: { rps: requests / totals.sqlite },
      roundRatios,
    };
  } finally {
    await Promise.all([memory.stop(), sqlite.stop()]);
  }
}

async function createsOn(args: string[][]): Promise<Load> {
  const sandboxes = await Promise.all(args.map(startCli));
  try {
    return await measured(
      sandboxes.map((sandbox) => sandbox.url),
      "/customers",
      "POST",
    );
  } finally {
    await Promise.all(sandboxes.map((sandbox) => sandbox.stop()));
  }
}

export async function measureSandboxStores(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "bench-sandbox-stores-"));
  try {
    const small = await sqliteAt(dir, SMALL);
    const large = await sqliteAt(dir, LARGE);
    const seed = seedFile(dir, SMALL);
    const { memory, sqlite, roundRatios } = await alternatedCreates(
      ["--seed", seed],
      ["--state", join(dir, "throughput.db"), "--seed", seed],
    );
    const spread = `${Math.min(...roundRatios).toFixed(2)}–${Math.max(...roundRatios).toFixed(2)}`;
    progress("sandbox stores: one and two processes on one Postgres");
    const postgres = await startPostgres();
    let onePg: Load;
    let twoPg: Load;
    try {
      const one = await createDatabase(postgres.url);
      onePg = await createsOn([["--state", one]]);
      const shared = await createDatabase(postgres.url);
      twoPg = await createsOn([
        ["--state", shared],
        ["--state", shared],
      ]);
    } finally {
      await postgres.stop();
    }
    const stored = (count: number) => `${count.toLocaleString("en-US")} customers stored`;
    const of = `${CONNECTIONS} connections, ${MEASURED_REQUESTS.toLocaleString("en-US")} requests`;
    const reads = `${CONNECTIONS} connections, ${MEASURED_READS} requests`;
    const ratioAtMost = (limit: number, value: number, baseline: number) => ({
      text: `≤ ${limit}`,
      met: value / baseline <= limit,
    });
    return [
      {
        figure: `SQLite sandbox POST /customers p50 with ${stored(LARGE)} (${of})`,
        value: large.create.p50,
        unit: "ms",
        baselineLabel: `same with ${stored(SMALL)}`,
        baseline: small.create.p50,
        target: ratioAtMost(1.5, large.create.p50, small.create.p50),
      },
      {
        figure: `SQLite sandbox GET /customers (first page) p50 with ${stored(LARGE)} (${reads})`,
        value: large.list.p50,
        unit: "ms",
        baselineLabel: `same with ${stored(SMALL)}`,
        baseline: small.list.p50,
      },
      {
        figure: `SQLite sandbox GET /customers?search_term (one match) p50 with ${stored(LARGE)} (${reads})`,
        value: large.search.p50,
        unit: "ms",
        baselineLabel: `same with ${stored(SMALL)}`,
        baseline: small.search.p50,
      },
      {
        figure: `SQLite file sandbox POST /customers throughput (${CONNECTIONS} connections, ${(THROUGHPUT_ROUNDS * 2 * SLICE_REQUESTS).toLocaleString("en-US")} requests to each in ${THROUGHPUT_ROUNDS} alternated rounds; each round's ratio ${spread})`,
        value: sqlite.rps,
        unit: "req/s",
        baselineLabel: "in-memory sandbox, same requests",
        baseline: memory.rps,
        target: { text: "≥ 0.8", met: sqlite.rps / memory.rps >= 0.8 },
      },
      {
        figure: `two processes on one Postgres, POST /customers throughput (${CONNECTIONS} connections to each, ${MEASURED_REQUESTS.toLocaleString("en-US")} requests in all)`,
        value: twoPg.rps,
        unit: "req/s",
        baselineLabel: "one process on Postgres",
        baseline: onePg.rps,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
