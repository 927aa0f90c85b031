// The stateful sandbox (SQLite file) against the stateful mocks a partner would otherwise pick,
// json-server and Mockoon CLI's CRUD route: the same POST /customers and first-page GET /customers,
// each in its own paging words, in alternated rounds of counted requests, so that every server
// holds the same customers at every moment and a change in the machine's load hits all alike.
// The sandbox runs with a webhook subscribed to every topic, delivered to a receiver of the bench:
// whatever events the sandbox sends on a create are in its figure; a second sandbox, without a
// webhook, gives the create's figure without them.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { seedCustomers } from "./sandbox-store.ts";
import { API_KEY, webhookTopics } from "./servers/fixtures.ts";
import { startReceiver, webhookOnEveryTopic } from "./servers/receiver.ts";
import {
  type BenchRequest,
  benchRequests,
  loadOptions,
  type RequestName,
} from "./servers/requests.ts";
import {
  type Peer,
  startJsonServer,
  startMockoon,
  startSandbox,
} from "./servers/stateful-peers.ts";
import { median, spreadOf } from "./stats.ts";

/** Customers every server starts with. */
const SEEDED = 100;
const CONNECTIONS = 10;
const ROUNDS = 5;
/** Requests per server in each round; fewer creates, which add customers to every server. */
const SLICE: Record<RequestName, number> = { "POST /customers": 500, "GET /customers": 2_000 };
/**
 * Unmeasured requests of each kind to each server first, so that the JIT has compiled their code
 * (a server's CPU time per request still falls by a third over its first few thousand reads).
 */
const WARM_UP: Record<RequestName, number> = { "POST /customers": 500, "GET /customers": 3_000 };
/**
 * At least this many times the faster peer's throughput, so that the sandbox is no reason to pick
 * another stateful mock: the first page, and the create with and without a webhook on every topic
 * (a delivery doubles a create's cost, hence the lower bar).
 */
const TARGETS = { read: 5, create: 5, createWithWebhook: 3 };
const PAGE_SIZE = 10;
/** How long after a slice's last answer its server's CPU time is read. */
const CPU_TAIL_MS = 250;

type Name = "sandbox" | "sandbox without a webhook" | "json-server" | "Mockoon CLI";

interface Contender extends Peer {
  name: Name;
  /** Its words for the first page of PAGE_SIZE customers. */
  firstPage: string;
}

const requestNames: RequestName[] = ["POST /customers", "GET /customers"];

/** The request `name` as `contender` is sent it: the same create, or its own first page. */
function requestFor(contender: Contender, name: RequestName): BenchRequest {
  const sent = benchRequests[name];
  return sent.method === "GET" ? { ...sent, path: contender.firstPage } : sent;
}

/** What a slice of requests took: wall time, and the server's CPU time. */
interface Slice {
  /** From the first request to the last answer (autocannon itself ends a run on its next one-second sample). */
  ms: number;
  /** The server process's CPU time from the first request to CPU_TAIL_MS after the last answer. */
  cpuMs: number;
}

/**
 * `amount` requests, CONNECTIONS at a time; any non-2xx answer stops the section. The server's
 * CPU time is read CPU_TAIL_MS after the last answer, so that what it does after answering (a
 * webhook delivery) is counted too.
 */
async function timed(contender: Contender, name: RequestName, amount: number): Promise<Slice> {
  const sent = requestFor(contender, name);
  const cpuBefore = contender.cpuMs();
  const ms = await new Promise<number>((resolve, reject) => {
    const started = performance.now();
    let answered = started;
    const instance = autocannon(
      {
        url: `${contender.url}${sent.path}`,
        connections: CONNECTIONS,
        amount,
        ...loadOptions(sent),
      },
      (error, result) => {
        const failed = error ? 1 : result.non2xx + result.errors + result.timeouts;
        if (failed > 0) {
          reject(
            new Error(`${name} to ${contender.name}: ${failed} requests failed or were not 2xx`, {
              cause: error,
            }),
          );
        } else {
          resolve(answered - started);
        }
      },
    );
    instance.on("response", () => {
      answered = performance.now();
    });
  });
  await new Promise((resolve) => setTimeout(resolve, CPU_TAIL_MS));
  return { ms, cpuMs: contender.cpuMs() - cpuBefore };
}

/** The first page's customers, and the count the server says it holds (where it says one). */
async function firstPage(contender: Contender): Promise<{ items: number; total?: number }> {
  const response = await fetch(`${contender.url}${contender.firstPage}`, {
    headers: { "X-API-Key": API_KEY },
  });
  const body = (await response.json()) as unknown[] | { items: unknown[] };
  const total = response.headers.get("x-total-count");
  return {
    items: (Array.isArray(body) ? body : body.items).length,
    ...(total !== null && { total: Number(total) }),
  };
}

/** Each contender answers a first page of PAGE_SIZE, and a peer holds `stored` customers. */
async function checkPages(contenders: Contender[], stored: number) {
  for (const contender of contenders) {
    const page = await firstPage(contender);
    if (page.items !== PAGE_SIZE || (page.total !== undefined && page.total !== stored)) {
      throw new Error(
        `${contender.name}'s first page has ${page.items} customers of ${page.total ?? "?"}, not ${PAGE_SIZE} of ${stored}`,
      );
    }
  }
}

/** A seed file of `customers` and, given a `receiver`, a webhook on every topic delivered there. */
function sandboxSeed(dir: string, customers: object[], receiver?: string): string {
  const path = join(dir, "sandbox-seed.json");
  const webhooks = receiver === undefined ? [] : [webhookOnEveryTopic(receiver)];
  writeFileSync(path, JSON.stringify({ customers, webhooks }));
  return path;
}

type Times = Record<Name, Record<RequestName, Slice[]>>;

/** ROUNDS rounds: each sends every request to every contender, in an order that rotates. */
async function alternatedRounds(contenders: Contender[]): Promise<Times> {
  const times = Object.fromEntries(
    contenders.map(({ name }) => [name, { "POST /customers": [], "GET /customers": [] }]),
  ) as unknown as Times;
  for (const name of requestNames) {
    for (const contender of contenders) await timed(contender, name, WARM_UP[name]);
  }
  let stored = SEEDED + WARM_UP["POST /customers"];
  await checkPages(contenders, stored);
  for (let round = 0; round < ROUNDS; round++) {
    const first = round % contenders.length;
    const order = [...contenders.slice(first), ...contenders.slice(0, first)];
    for (const name of requestNames) {
      for (const contender of order) {
        progress(`stateful mocks: round ${round + 1}/${ROUNDS}, ${name} on ${contender.name}`);
        times[contender.name][name].push(await timed(contender, name, SLICE[name]));
      }
    }
    stored += SLICE["POST /customers"];
  }
  await checkPages(contenders, stored);
  return times;
}

function versionOf(name: string): string {
  const require = createRequire(import.meta.url);
  return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")).version;
}

function rows(times: Times, deliveries: number): Row[] {
  const rps = (name: Name, request: RequestName): number[] =>
    times[name][request].map(({ ms }) => (SLICE[request] * 1000) / ms);
  // CPU time does not depend on what else the machine runs: the total over the rounds.
  const cpuPerRequest = (name: Name, request: RequestName) =>
    (times[name][request].reduce((sum, { cpuMs }) => sum + cpuMs, 0) * 1000) /
    (ROUNDS * SLICE[request]);
  // The median round, as the Mock section reports: a busy moment of the shared machine moves one
  // round, not the figure.
  const overall = (name: Name, request: RequestName) => median(rps(name, request));
  const peers: { name: Name; label: string }[] = [
    {
      name: "json-server",
      label: `json-server ${versionOf("json-server")} (db.json; first page ?_page=1&_limit=${PAGE_SIZE})`,
    },
    {
      name: "Mockoon CLI",
      label: `Mockoon CLI ${versionOf("@mockoon/cli")} CRUD route (data bucket; first page ?page=1&limit=${PAGE_SIZE})`,
    },
  ];
  const of = (request: RequestName) =>
    `${CONNECTIONS} connections, ${ROUNDS} alternated rounds of ${SLICE[request].toLocaleString("en-US")} requests to each, ${SEEDED} customers seeded, ${(SEEDED + WARM_UP["POST /customers"] + ROUNDS * SLICE["POST /customers"]).toLocaleString("en-US")} at the end`;
  const sandboxes: { name: Name; words: string; targets: Record<RequestName, number> }[] = [
    {
      name: "sandbox",
      words: `a webhook on all ${webhookTopics.length} topics (${deliveries.toLocaleString("en-US")} deliveries received)`,
      targets: { "POST /customers": TARGETS.createWithWebhook, "GET /customers": TARGETS.read },
    },
    {
      name: "sandbox without a webhook",
      words: "no webhook",
      targets: { "POST /customers": TARGETS.create, "GET /customers": Number.NaN },
    },
  ];
  return requestNames.flatMap((request) => {
    const faster = Math.max(...peers.map((peer) => overall(peer.name, request)));
    // The first page is the same work with a webhook or without: one figure, the webhook's.
    const measured = sandboxes.filter(({ targets }) => !Number.isNaN(targets[request]));
    return measured.flatMap(({ name, words, targets }) =>
      peers.flatMap((peer): Row[] => {
        const sandbox = overall(name, request);
        const roundRatios = times[peer.name][request].map(
          ({ ms }, round) => ms / (times[name][request][round]?.ms ?? Number.NaN),
        );
        const spread = `${Math.min(...roundRatios).toFixed(1)}–${Math.max(...roundRatios).toFixed(1)}`;
        const baseline = overall(peer.name, request);
        const target = targets[request];
        const throughput: Row = {
          figure: `payments-mock --stateful --state <file> ${request} throughput, ${words} (${of(request)}; each round's ratio ${spread})`,
          value: sandbox,
          spread: spreadOf(rps(name, request)),
          unit: "req/s",
          baselineLabel: `${peer.label}, same requests`,
          baseline,
          baselineSpread: spreadOf(rps(peer.name, request)),
          ...(baseline === faster && {
            target: { text: `≥ ×${target} of the faster peer`, met: sandbox / faster >= target },
          }),
        };
        const cpu: Row = {
          figure: `payments-mock --stateful --state <file> ${request}, ${words}, CPU time per request (its process, every thread, until ${CPU_TAIL_MS} ms after the last answer; the same rounds)`,
          value: cpuPerRequest(name, request),
          unit: "µs",
          baselineLabel: `${peer.label}, same requests`,
          baseline: cpuPerRequest(peer.name, request),
        };
        return [throughput, cpu];
      }),
    );
  });
}

export async function measureStatefulMocks(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "bench-stateful-mocks-"));
  const started: { stop(): Promise<void> }[] = [];
  try {
    const customers = seedCustomers(SEEDED);
    progress("stateful mocks: starting the sandbox, json-server and Mockoon CLI");
    const receiver = await startReceiver();
    started.push(receiver);
    const sandbox = await startSandbox(dir, sandboxSeed(dir, customers, receiver.url));
    started.push(sandbox);
    const quietDir = join(dir, "without-webhook");
    mkdirSync(quietDir);
    const quiet = await startSandbox(quietDir, sandboxSeed(quietDir, customers));
    started.push(quiet);
    const jsonServer = await startJsonServer(dir, customers);
    started.push(jsonServer);
    const mockoon = await startMockoon(dir, customers);
    started.push(mockoon);
    const times = await alternatedRounds([
      { ...sandbox, name: "sandbox", firstPage: `/customers?page_size=${PAGE_SIZE}` },
      {
        ...quiet,
        name: "sandbox without a webhook",
        firstPage: `/customers?page_size=${PAGE_SIZE}`,
      },
      { ...jsonServer, name: "json-server", firstPage: `/customers?_page=1&_limit=${PAGE_SIZE}` },
      { ...mockoon, name: "Mockoon CLI", firstPage: `/customers?page=1&limit=${PAGE_SIZE}` },
    ]);
    return rows(times, await receiver.deliveries());
  } finally {
    await Promise.all(started.map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}
