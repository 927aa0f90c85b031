// The mock: start → first answer, latency and throughput under autocannon, and the contract suite's
// wall time; each against the same figure for a plain node:http server or an empty vitest run.
// The stateful sandbox's throughput is reported against the stateless mock's.
import { randomUUID } from "node:crypto";
import autocannon from "autocannon";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { runCommand } from "./run-command.ts";
import { API_KEY, createCustomerRequest } from "./servers/fixtures.ts";
import { forkServer } from "./servers/fork-server.ts";
import { medianOf } from "./stats.ts";

const START_RUNS = 3;
const LOAD_SECONDS = 5;
/** Unmeasured load first, so that the measured runs see code the JIT has already compiled. */
const WARM_UP_SECONDS = 1;
const CONNECTIONS = 10;
const CONTRACT_SUITE = "test/contract.test.ts";

type ServerKind = "plain" | "mock" | "sandbox";
type Load = { p50: number; p99: number; rps: number };

const requests = {
  "GET /customers": { method: "GET" as const, headers: { "X-API-Key": API_KEY } },
  "POST /customers": {
    method: "POST" as const,
    headers: {
      "X-API-Key": API_KEY,
      "IDEMPOTENCY-KEY": "9c2e4a6b-1d3f-4b5a-8c7e-0f2a4c6e8b1d",
      "content-type": "application/json",
    },
    body: JSON.stringify(createCustomerRequest),
  },
};

async function startToFirstAnswer(kind: ServerKind) {
  let run = 0;
  return medianOf(START_RUNS, async () => {
    progress(`mock: start → first answer, ${kind} server, run ${++run}/${START_RUNS}`);
    const server = await forkServer(kind);
    await server.stop();
    return server.startToFirstAnswerMs;
  });
}

/**
 * The sandbox would replay one fixed key: each of its POSTs gets a key of its own, so that every
 * one creates a customer.
 */
function requestOf(kind: ServerKind, name: keyof typeof requests) {
  const request = requests[name];
  if (kind !== "sandbox" || request.method !== "POST") return request;
  return {
    requests: [
      {
        ...request,
        setupRequest: (sent: autocannon.Request) => ({
          ...sent,
          headers: { ...sent.headers, "IDEMPOTENCY-KEY": randomUUID() },
        }),
      },
    ],
  };
}

async function load(
  url: string,
  name: keyof typeof requests,
  kind: ServerKind,
  seconds: number = LOAD_SECONDS,
): Promise<Load> {
  const result = await autocannon({
    url: `${url}/customers`,
    connections: CONNECTIONS,
    duration: seconds,
    ...requestOf(kind, name),
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0)
    throw new Error(`${name} to ${url}: ${failed} of the requests failed or were not 2xx`);
  return { p50: result.latency.p50, p99: result.latency.p99, rps: result.requests.average };
}

async function loadServer(kind: ServerKind): Promise<Record<keyof typeof requests, Load>> {
  const server = await forkServer(kind);
  try {
    await load(server.url, "GET /customers", kind, WARM_UP_SECONDS);
    await load(server.url, "POST /customers", kind, WARM_UP_SECONDS);
    progress(`mock: autocannon GET /customers on the ${kind} server (${LOAD_SECONDS} s)`);
    const get = await load(server.url, "GET /customers", kind);
    progress(`mock: autocannon POST /customers on the ${kind} server (${LOAD_SECONDS} s)`);
    const post = await load(server.url, "POST /customers", kind);
    return { "GET /customers": get, "POST /customers": post };
  } finally {
    await server.stop();
  }
}

async function contractSuite() {
  const mock = ["--filter", "@org/payments-mock", "exec", "vitest", "run"];
  progress(`mock: contract suite (${CONTRACT_SUITE})`);
  const suiteMs = (await runCommand("pnpm", [...mock, CONTRACT_SUITE])).ms;
  const floorMs = (await runCommand("pnpm", [...mock, "--passWithNoTests", "no-such-test-file"]))
    .ms;
  return { suiteMs, floorMs };
}

export async function measureMock(): Promise<Row[]> {
  const mockStart = await startToFirstAnswer("mock");
  const plainStart = await startToFirstAnswer("plain");
  const mockLoad = await loadServer("mock");
  const plainLoad = await loadServer("plain");
  const sandboxLoad = await loadServer("sandbox");
  const { suiteMs, floorMs } = await contractSuite();
  const plain = "plain node:http server, fixed JSON";
  const rows: Row[] = [
    {
      figure: `startMock() → first answer to GET /customers (median of ${START_RUNS})`,
      value: mockStart,
      unit: "ms",
      baselineLabel: plain,
      baseline: plainStart,
    },
  ];
  for (const name of Object.keys(requests) as (keyof typeof requests)[]) {
    const of = `${name}, ${CONNECTIONS} connections, ${LOAD_SECONDS} s`;
    const mock = mockLoad[name];
    const base = plainLoad[name];
    rows.push(
      {
        figure: `mock ${of}: p50 latency (autocannon, 1 ms steps)`,
        value: mock.p50,
        unit: "ms",
        baselineLabel: plain,
        baseline: base.p50,
      },
      {
        figure: `mock ${of}: p99 latency (1 ms steps)`,
        value: mock.p99,
        unit: "ms",
        baselineLabel: plain,
        baseline: base.p99,
      },
      {
        figure: `mock ${of}: throughput`,
        value: mock.rps,
        unit: "req/s",
        baselineLabel: plain,
        baseline: base.rps,
      },
    );
  }
  for (const name of Object.keys(requests) as (keyof typeof requests)[]) {
    rows.push({
      figure: `stateful sandbox ${name}, ${CONNECTIONS} connections, ${LOAD_SECONDS} s: throughput`,
      value: sandboxLoad[name].rps,
      unit: "req/s",
      baselineLabel: "stateless mock, same requests",
      baseline: mockLoad[name].rps,
    });
  }
  rows.push({
    figure: `mock contract suite wall time (vitest run ${CONTRACT_SUITE})`,
    value: suiteMs,
    unit: "ms",
    baselineLabel: "same command, no test file (vitest floor)",
    baseline: floorMs,
  });
  return rows;
}
