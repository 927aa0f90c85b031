// The mock as users run it (the built `payments-mock --quiet`): throughput and p99 latency under
// autocannon against a plain node:http server that answers the same bytes, in alternating rounds,
// for the bench's two requests and for a create as the client sends it;
// process start → first answer against a plain server process; startMock() → first answer in a
// running process; the stateful sandbox's throughput against the stateless mock's, in the same
// rounds; and the contract suite's wall time.
import { connect } from "node:net";
import { loadavg } from "node:os";
import autocannon from "autocannon";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { runCommand } from "./run-command.ts";
import { type CliServer, cliCommand, startCli, startToFirstAnswer } from "./servers/cli-server.ts";
import { recordClientCreate } from "./servers/client-create.ts";
import { cpuMsOf } from "./servers/cpu-time.ts";
import { API_KEY } from "./servers/fixtures.ts";
import { forkReporting, forkServer } from "./servers/fork-server.ts";
import {
  type BenchRequest,
  benchRequests,
  loadOptions,
  type RequestName,
  withFreshKey,
} from "./servers/requests.ts";
import { median, medianOf, spreadOf } from "./stats.ts";

const START_RUNS = 5;
const ROUNDS = 5;
const ROUND_SECONDS = 3;
/** Unmeasured load first, so that the measured rounds see code the JIT has already compiled. */
const WARM_UP_SECONDS = 2;
const CONNECTIONS = 10;
const CONTRACT_SUITE = "test/contract.test.ts";

const TARGETS = { throughput: 0.6, p99Ms: 10, cliStartMs: 1_000, startMockMs: 400 };

/** A create as a partner's app sends it: @org/payments-client's request, sent as recorded. */
const CLIENT_CREATE = "POST /customers from the client";
type MockRequestName = RequestName | typeof CLIENT_CREATE;
type MockRequests = Record<MockRequestName, BenchRequest>;
const mockRequestNames: MockRequestName[] = [
  ...(Object.keys(benchRequests) as RequestName[]),
  CLIENT_CREATE,
];
/** How each request is named in a figure. */
const DESCRIBED: Record<MockRequestName, string> = {
  "GET /customers": "GET /customers",
  "POST /customers": "POST /customers (a fresh IDEMPOTENCY-KEY each)",
  [CLIENT_CREATE]:
    "POST /customers as @org/payments-client sends it (a person; its headers and body, the same each time)",
};

type ServerKind = "mock" | "plain" | "sandbox";
/** One round's figures: its CPU time per request in µs, and the load average after it. */
type Load = { p99: number; rps: number; cpuUs: number; load: number };
type Server = { url: string; pid: number | undefined; stop(): Promise<void> };

/** The sandbox gets the bench's own requests: a create sent again as recorded would be a replay. */
function loadsSandbox(name: MockRequestName): name is RequestName {
  return name !== CLIENT_CREATE;
}

async function load(
  server: Server,
  kind: ServerKind,
  name: MockRequestName,
  sent: BenchRequest,
  seconds: number,
) {
  const cpuBefore = cpuMsOf(server.pid);
  const result = await autocannon({
    url: `${server.url}${sent.path}`,
    connections: CONNECTIONS,
    duration: seconds,
    ...loadOptions(sent),
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) {
    throw new Error(`${name} to the ${kind} server: ${failed} requests failed or were not 2xx`);
  }
  const cpuUs = ((cpuMsOf(server.pid) - cpuBefore) * 1000) / result.requests.total;
  return { p99: result.latency.p99, rps: result.requests.average, cpuUs, load: loadavg()[0] ?? 0 };
}

/** The plain server that answers the mock's bytes, in its own process. */
async function startSameBytes(mockUrl: string, requests: MockRequests): Promise<Server> {
  const { child, message, stop } = await forkReporting<{ url: string }>(
    new URL("./servers/same-bytes.ts", import.meta.url),
    [mockUrl, JSON.stringify(Object.values(requests))],
    "the same-bytes server",
  );
  return { url: message.url, pid: child.pid, stop };
}

/** One request's whole answer as bytes, with the `Date` header (the one thing that varies) left out. */
async function rawAnswer(url: string, sent: BenchRequest): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const headers = Object.entries(sent.headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const length =
    sent.body === undefined ? "" : `content-length: ${Buffer.byteLength(sent.body)}\r\n`;
  socket.end(
    `${sent.method} ${sent.path} HTTP/1.1\r\nhost: ${hostname}\r\nconnection: close\r\n${headers.join("")}${length}\r\n${sent.body ?? ""}`,
  );
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  return (
    Buffer.concat(chunks)
      .toString("latin1")
      .replace(/\r\nDate: [^\r]*/, "")
      // A new id for every answer: the plain server sends one of the same length.
      .replace(/\r\nx-request-id: [^\r]*/i, "\r\nx-request-id: <id>")
  );
}

/**
 * The baseline is only fair if it sends what the mock sends: the section stops if it does not.
 * A POST is sent as the load sends it, with a key of its own (the plain server answers what the
 * mock answered the fixed key).
 */
async function checkSameBytes(mock: Server, plain: Server, requests: MockRequests) {
  for (const name of mockRequestNames) {
    const fixed = requests[name];
    const sent =
      fixed.method === "POST" && !fixed.asRecorded
        ? { ...fixed, headers: withFreshKey(fixed.headers) }
        : fixed;
    const [fromMock, fromPlain] = await Promise.all(
      [mock, plain].map((server) => rawAnswer(server.url, sent)),
    );
    if (fromMock !== fromPlain) {
      throw new Error(
        `${name}: the plain server's answer differs from the mock's:\n${fromMock}\n---\n${fromPlain}`,
      );
    }
  }
}

type Samples = Record<ServerKind, Record<MockRequestName, Load[]>>;

/**
 * Alternating rounds: each round loads every server with each request (the sandbox with the
 * bench's own), in an order that rotates.
 */
async function loadRounds(
  servers: Record<ServerKind, Server>,
  requests: MockRequests,
): Promise<Samples> {
  const kinds: ServerKind[] = ["mock", "plain", "sandbox"];
  const samples = Object.fromEntries(
    kinds.map((kind) => [kind, Object.fromEntries(mockRequestNames.map((name) => [name, []]))]),
  ) as unknown as Samples;
  const loaded = (kind: ServerKind, name: MockRequestName) =>
    kind !== "sandbox" || loadsSandbox(name);
  for (const kind of kinds) {
    for (const name of mockRequestNames.filter((name) => loaded(kind, name))) {
      progress(`mock: warm-up ${name} on the ${kind} server (${WARM_UP_SECONDS} s)`);
      await load(servers[kind], kind, name, requests[name], WARM_UP_SECONDS);
    }
  }
  for (let round = 0; round < ROUNDS; round++) {
    const order = [...kinds.slice(round % kinds.length), ...kinds.slice(0, round % kinds.length)];
    for (const name of mockRequestNames) {
      for (const kind of order.filter((kind) => loaded(kind, name))) {
        progress(
          `mock: round ${round + 1}/${ROUNDS}, ${name} on the ${kind} server (${ROUND_SECONDS} s)`,
        );
        samples[kind][name].push(
          await load(servers[kind], kind, name, requests[name], ROUND_SECONDS),
        );
      }
    }
  }
  return samples;
}

async function loadServers(): Promise<Samples> {
  const started: Server[] = [];
  try {
    const mock: CliServer = await startCli();
    started.push(mock);
    // The bench's key is the example key, whose partner holds the seed the stateless mock answers.
    const sandbox = await startCli(["--stateful", "--example-key", API_KEY]);
    started.push(sandbox);
    const requests: MockRequests = {
      ...benchRequests,
      [CLIENT_CREATE]: await recordClientCreate(),
    };
    const plain = await startSameBytes(mock.url, requests);
    started.push(plain);
    await checkSameBytes(mock, plain, requests);
    return await loadRounds({ mock, plain, sandbox }, requests);
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

/** Process start → first answer, the CLI's and a plain server process's, alternating. */
async function processStarts() {
  const cli: number[] = [];
  const plain: number[] = [];
  const plainCommand = [new URL("./servers/plain-start.ts", import.meta.url).pathname];
  for (let run = 1; run <= START_RUNS; run++) {
    progress(`mock: process start → first answer, run ${run}/${START_RUNS}`);
    cli.push(await startToFirstAnswer(cliCommand));
    plain.push(await startToFirstAnswer(plainCommand));
  }
  return { cli, plain };
}

/** startMock() → first answer in a process that has loaded the module, and the same for node:http. */
async function inProcessStart(kind: "mock" | "plain") {
  let run = 0;
  return medianOf(START_RUNS, async () => {
    progress(`mock: startMock() → first answer, ${kind} server, run ${++run}/${START_RUNS}`);
    const server = await forkServer(kind);
    await server.stop();
    return server.startToFirstAnswerMs;
  });
}

async function contractSuite() {
  const mock = ["--filter", "@org/payments-mock", "exec", "vitest", "run"];
  progress(`mock: contract suite (${CONTRACT_SUITE})`);
  const suiteMs = (await runCommand("pnpm", [...mock, CONTRACT_SUITE])).ms;
  const floorMs = (await runCommand("pnpm", [...mock, "--passWithNoTests", "no-such-test-file"]))
    .ms;
  return { suiteMs, floorMs };
}

/** Each round's ratio of the mock's throughput to the plain server's, lowest to highest. */
function roundRatios(samples: Samples, name: MockRequestName): string {
  const ratios = samples.mock[name].map(
    (sample, round) => sample.rps / (samples.plain[name][round]?.rps ?? Number.NaN),
  );
  const [low, high] = spreadOf(ratios);
  return `${low.toFixed(2)}–${high.toFixed(2)}`;
}

function loadRows(samples: Samples): Row[] {
  const rows: Row[] = [];
  const of = `${CONNECTIONS} connections, median of ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s`;
  const plain = "plain node:http server, same bytes";
  for (const name of mockRequestNames) {
    const mockRps = samples.mock[name].map((sample) => sample.rps);
    const plainRps = samples.plain[name].map((sample) => sample.rps);
    const mockP99 = samples.mock[name].map((sample) => sample.p99);
    const plainP99 = samples.plain[name].map((sample) => sample.p99);
    const throughput = median(mockRps) / median(plainRps);
    const load = median([...samples.mock[name], ...samples.plain[name]].map((s) => s.load));
    rows.push(
      {
        figure: `payments-mock --quiet ${DESCRIBED[name]}, ${of}: throughput (each round's ratio ${roundRatios(samples, name)}; load average ${load.toFixed(1)})`,
        value: median(mockRps),
        spread: spreadOf(mockRps),
        unit: "req/s",
        baselineLabel: plain,
        baseline: median(plainRps),
        baselineSpread: spreadOf(plainRps),
        target: { text: `≥ ×${TARGETS.throughput}`, met: throughput >= TARGETS.throughput },
      },
      {
        figure: `payments-mock --quiet ${DESCRIBED[name]}, ${of}: p99 latency (autocannon, 1 ms steps)`,
        value: median(mockP99),
        spread: spreadOf(mockP99),
        unit: "ms",
        baselineLabel: plain,
        baseline: median(plainP99),
        baselineSpread: spreadOf(plainP99),
        target: { text: `≤ ${TARGETS.p99Ms} ms`, met: median(mockP99) <= TARGETS.p99Ms },
      },
      {
        // No target: where the server is what limits the rate, the throughput ratio is about the
        // inverse of this one, and the machine's other work moves it less.
        figure: `payments-mock --quiet ${DESCRIBED[name]}, ${of}: CPU time per request (its process, user and system, from /proc)`,
        value: median(samples.mock[name].map((sample) => sample.cpuUs)),
        spread: spreadOf(samples.mock[name].map((sample) => sample.cpuUs)),
        unit: "µs",
        baselineLabel: plain,
        baseline: median(samples.plain[name].map((sample) => sample.cpuUs)),
        baselineSpread: spreadOf(samples.plain[name].map((sample) => sample.cpuUs)),
      },
    );
  }
  for (const name of mockRequestNames.filter(loadsSandbox)) {
    const sandboxRps = samples.sandbox[name].map((sample) => sample.rps);
    const mockRps = samples.mock[name].map((sample) => sample.rps);
    rows.push({
      figure: `payments-mock --quiet --stateful ${name}, ${of}: throughput`,
      value: median(sandboxRps),
      spread: spreadOf(sandboxRps),
      unit: "req/s",
      baselineLabel: "stateless mock, same rounds",
      baseline: median(mockRps),
      baselineSpread: spreadOf(mockRps),
      // No target: the sandbox does what the stateless mock does not (a transaction, an index, a
      // webhook's events); its own targets are in "Stateful mocks" and "Sandbox clock".
    });
  }
  return rows;
}

export async function measureMock(): Promise<Row[]> {
  const starts = await processStarts();
  const startMockMs = await inProcessStart("mock");
  const plainStartMs = await inProcessStart("plain");
  const samples = await loadServers();
  const { suiteMs, floorMs } = await contractSuite();
  const cliStartMs = median(starts.cli);
  return [
    {
      figure: `payments-mock --quiet: process start → first answer to GET /customers (median of ${START_RUNS})`,
      value: cliStartMs,
      spread: spreadOf(starts.cli),
      unit: "ms",
      baselineLabel: "plain node:http server process",
      baseline: median(starts.plain),
      baselineSpread: spreadOf(starts.plain),
      target: { text: `≤ ${TARGETS.cliStartMs} ms`, met: cliStartMs <= TARGETS.cliStartMs },
    },
    {
      figure: `startMock() → first answer to GET /customers, module loaded (median of ${START_RUNS})`,
      value: startMockMs,
      unit: "ms",
      baselineLabel: "plain node:http server, same process",
      baseline: plainStartMs,
      target: { text: `≤ ${TARGETS.startMockMs} ms`, met: startMockMs <= TARGETS.startMockMs },
    },
    ...loadRows(samples),
    {
      figure: `mock contract suite wall time (vitest run ${CONTRACT_SUITE})`,
      value: suiteMs,
      unit: "ms",
      baselineLabel: "same command, no test file (vitest floor)",
      baseline: floorMs,
    },
  ];
}
