// The MCP server (@org/payments-mcp), against a sandbox (`payments-mock --stateful`) of its own:
// - process start → the answer to `tools/list`: the installed bin spawned as an MCP client does,
//   with `initialize`, `notifications/initialized` and `tools/list` written at once, against a
//   plain Node process that answers the same line (Node's own start-up);
// - a tool call's cost (`listCustomers`, a page of ten customers) through the SDK's client over
//   stdio, against the same call made with @org/payments-client in this process, in interleaved
//   rounds. Both read the sandbox's answer from its memory of repeated reads, so the figure is
//   what the server adds to a fast call: a process more on the way there and back. A write
//   (`createCustomer`), which the sandbox takes longer over, is measured the same way beside it:
//   the server adds about as much to it, a smaller part of the whole.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createPaymentsClient } from "@org/payments-client";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { startCli } from "./servers/cli-server.ts";
import { median, spreadOf } from "./stats.ts";

const START_RUNS = 11;
const CALL_ROUNDS = 40;
const CALLS_PER_ROUND = 25;
// Enough for the server's client to reach the speed of the bench's own, which earlier sections warmed.
const WARM_UP_CALLS = 1000;
const API_KEY = "bench-mcp-key";
const TARGETS = { startMs: 500, callRatio: 1.5 };

const bin = join(
  dirname(createRequire(import.meta.url).resolve("@org/payments-mcp/package.json")),
  "bin/payments-mcp.mjs",
);

const LINES = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "bench", version: "0" },
    },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
]
  .map((line) => `${JSON.stringify(line)}\n`)
  .join("");

/** Node answering the `tools/list` line with an empty list: the floor of any stdio server. */
const PLAIN = `process.stdin.on("data", (d) => { if (String(d).includes('"tools/list"')) process.stdout.write('{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}\\n'); });`;

/** Spawn → the line answering `tools/list`, in ms; and how many tools it listed. */
async function startToToolsList(args: string[], baseUrl: string) {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? "", PAYMENTS_API_KEY: API_KEY, PAYMENTS_BASE_URL: baseUrl },
    stdio: ["pipe", "pipe", "ignore"],
  });
  const exited = once(child, "exit");
  child.stdin?.write(LINES);
  let output = "";
  const answer = await new Promise<{ ms: number; tools: number }>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split("\n").find((text) => text.includes('"id":2'));
      if (line)
        resolve({ ms: performance.now() - started, tools: JSON.parse(line).result.tools.length });
    });
    exited.then(() => reject(new Error(`${args.join(" ")} exited before answering: ${output}`)));
  });
  child.stdin?.end();
  child.kill("SIGTERM");
  await exited;
  return answer;
}

async function startFigures(baseUrl: string): Promise<Row[]> {
  const server: number[] = [];
  const plain: number[] = [];
  let tools = 0;
  for (let run = 1; run <= START_RUNS; run++) {
    progress(`mcp: process start → tools/list, run ${run}/${START_RUNS}`);
    const measured = await startToToolsList([bin], baseUrl);
    tools = measured.tools;
    server.push(measured.ms);
    plain.push((await startToToolsList(["-e", PLAIN], baseUrl)).ms);
  }
  // The first start fills V8's compile cache, as an MCP client's first start of the day does.
  const warm = server.slice(1);
  const value = median(warm);
  return [
    {
      figure: `payments-mcp over stdio: process start → the answer to tools/list (${tools} tools; median of ${warm.length}, after a first start)`,
      value,
      unit: "ms",
      spread: spreadOf(warm),
      baselineLabel: "a plain Node process answering the same line",
      baseline: median(plain),
      baselineSpread: spreadOf(plain),
      target: { text: `< ${TARGETS.startMs} ms`, met: value < TARGETS.startMs },
    },
    {
      figure:
        "payments-mcp: the run's first start (after a build, V8's compile cache of the bin is empty)",
      value: server[0] ?? Number.NaN,
      unit: "ms",
      baselineLabel: "a plain Node process answering the same line",
      baseline: plain[0] ?? Number.NaN,
    },
  ];
}

/** A call made both ways: as a tool through the SDK's client, and with @org/payments-client. */
interface PairedCall {
  viaMcp: () => Promise<void>;
  direct: () => Promise<void>;
}

type Samples = { mcp: number[]; client: number[]; ping: number[] };

/** Each way's samples (ms) and each round's medians (µs), the ways alternating in each round. */
async function measurePair(label: string, call: PairedCall, ping: () => Promise<void>) {
  const timed = async (run: () => Promise<void>, samples: number[]) => {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  };
  progress(`mcp: ${label}, warm-up, ${WARM_UP_CALLS} calls each`);
  for (let i = 0; i < WARM_UP_CALLS; i++) {
    await call.viaMcp();
    await call.direct();
  }
  const samples: Samples = { mcp: [], client: [], ping: [] };
  // Each round's median too: their lowest and highest say how much the load moved the figure.
  const rounds = { mcp: [] as number[], client: [] as number[] };
  for (let round = 0; round < CALL_ROUNDS; round++) {
    if (round % 10 === 0)
      progress(`mcp: ${label}, rounds ${round + 1}–${round + 10}/${CALL_ROUNDS}`);
    const order = round % 2 === 0 ? (["mcp", "client"] as const) : (["client", "mcp"] as const);
    for (const kind of order) {
      for (let i = 0; i < CALLS_PER_ROUND; i++) {
        await timed(kind === "mcp" ? call.viaMcp : call.direct, samples[kind]);
      }
      rounds[kind].push(median(samples[kind].slice(-CALLS_PER_ROUND)) * 1000);
    }
    for (let i = 0; i < CALLS_PER_ROUND; i++) await timed(ping, samples.ping);
  }
  return { samples, rounds };
}

async function callFigures(baseUrl: string): Promise<Row[]> {
  const client = createPaymentsClient({ apiKey: API_KEY, baseUrl });
  // A key's partner starts with no customer: the page both read holds ten.
  for (let i = 0; i < 10; i++) {
    await client.customers.create({ customer_type: "Person", email: `bench-${i}@example.com` });
  }
  const mcp = new Client({ name: "bench", version: "0" });
  await mcp.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin],
      env: { PATH: process.env.PATH ?? "", PAYMENTS_API_KEY: API_KEY, PAYMENTS_BASE_URL: baseUrl },
      stderr: "ignore",
    }),
  );
  await mcp.listTools();
  const tool = async (name: string, args: Record<string, unknown>) => {
    const result = await mcp.callTool({ name, arguments: args });
    if (result.isError) throw new Error(JSON.stringify(result.content));
  };
  const ping = async () => void (await mcp.ping());
  const list: PairedCall = {
    viaMcp: () => tool("listCustomers", { page_size: 10 }),
    direct: async () => {
      const { error } = await client.GET("/customers", { params: { query: { page_size: 10 } } });
      if (error) throw error;
    },
  };
  // Each a new customer: the tool is given a new key, as the client makes one for each call.
  const create: PairedCall = {
    viaMcp: () =>
      tool("createCustomer", {
        customer_type: "Person",
        email: "bench-create@example.com",
        idempotency_key: crypto.randomUUID(),
      }),
    direct: async () => {
      await client.customers.create({ customer_type: "Person", email: "bench-create@example.com" });
    },
  };
  try {
    const listed = await measurePair("listCustomers", list, ping);
    const created = await measurePair("createCustomer", create, ping);
    const count = CALL_ROUNDS * CALLS_PER_ROUND;
    const method = `through the SDK's client over stdio, median of ${count} in ${CALL_ROUNDS} interleaved rounds (the rounds' medians from lowest to highest)`;
    const value = median(listed.samples.mcp);
    const baseline = median(listed.samples.client);
    return [
      {
        figure: `tool call listCustomers (page_size 10) ${method}`,
        value: value * 1000,
        unit: "µs",
        spread: spreadOf(listed.rounds.mcp),
        baselineLabel: "the same GET /customers made with @org/payments-client",
        baseline: baseline * 1000,
        baselineSpread: spreadOf(listed.rounds.client),
        target: { text: `≤ ×${TARGETS.callRatio}`, met: value / baseline <= TARGETS.callRatio },
      },
      {
        figure:
          "what the server adds to that call (the two medians' difference): the protocol's round trip, the answer as structured content and text, the SDK's checks at both ends",
        value: (value - baseline) * 1000,
        unit: "µs",
        baselineLabel: "an MCP ping over the same session (the round trip alone)",
        baseline: median(listed.samples.ping) * 1000,
      },
      {
        figure: `for comparison, a write: tool call createCustomer (each a new customer) ${method}`,
        value: median(created.samples.mcp) * 1000,
        unit: "µs",
        spread: spreadOf(created.rounds.mcp),
        baselineLabel: "the same POST /customers made with @org/payments-client",
        baseline: median(created.samples.client) * 1000,
        baselineSpread: spreadOf(created.rounds.client),
      },
    ];
  } finally {
    await mcp.close();
  }
}

export async function measureMcp(): Promise<Row[]> {
  progress("mcp: starting a sandbox (payments-mock --stateful)");
  const sandbox = await startCli(["--stateful"]);
  try {
    return [...(await startFigures(sandbox.url)), ...(await callFigures(sandbox.url))];
  } finally {
    await sandbox.stop();
  }
}
