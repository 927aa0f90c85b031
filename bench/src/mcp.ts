// The MCP server (@org/payments-mcp), against a sandbox (`payments-mock --stateful`) of its own:
// - what its tool list costs a client's context, in each mode (the default, `--toolsets all`,
//   `--read-only`, `--dynamic`): the bytes of `JSON.stringify` of the `tools` array and an
//   estimate of its tokens, against the limits the default must fit (40 tools, 40,000 bytes);
// - process start → the answer to `tools/list`: the installed bin spawned as an MCP client does,
//   with `initialize`, `notifications/initialized` and `tools/list` written at once, against a
//   plain Node process that answers the same line (Node's own start-up);
// - what the server adds to a tool call: a read (`listCustomers`, a page of ten customers) and a
//   write (`createCustomer`) through the SDK's client over stdio, against the same call made with
//   @org/payments-client in this process, in interleaved rounds, with MCP pings over the same
//   session between them. The difference of the medians is the server's part (a process more on
//   the way there and back, the answer as structured content and text); it is held to 0.5 ms and
//   to ×3 of a ping's round trip, the protocol's own cost on the same session.
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
/**
 * Calls of each way before the measured rounds: both reach the speed they keep. A first page
 * through @org/payments-client took 241 µs after 1,000 calls and 144 µs after 40,000 (V8 keeps
 * optimising undici's fetch), and the bench's own client had been warmed by the sections before,
 * the server's not: at 1,000 each, the server's part of the difference was the server being
 * colder, not what it does.
 */
const WARM_UP_CALLS = 10_000;
const API_KEY = "bench-mcp-key";
const TARGETS = { startMs: 500, addedUs: 500, addedPerPing: 3, tools: 40, listBytes: 40_000 };
/** A rough rule for English and JSON text alike: a token is about four bytes. */
const BYTES_PER_TOKEN = 4;
/** The modes whose tool lists are measured, by their arguments. */
const MODES: [string, string[]][] = [
  ["default", []],
  ["--toolsets all", ["--toolsets", "all"]],
  ["--read-only", ["--read-only"]],
  ["--dynamic", ["--dynamic"]],
];

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

/** Each mode's tool list: its tools, its bytes and its estimated tokens. */
async function listFigures(baseUrl: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [mode, args] of MODES) {
    progress(`mcp: the tool list, ${mode}`);
    const client = new Client({ name: "bench", version: "0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, ...args],
        env: {
          PATH: process.env.PATH ?? "",
          PAYMENTS_API_KEY: API_KEY,
          PAYMENTS_BASE_URL: baseUrl,
        },
        stderr: "ignore",
      }),
    );
    try {
      const { tools } = await client.listTools();
      const bytes = Buffer.byteLength(JSON.stringify(tools));
      const fits = tools.length <= TARGETS.tools && bytes <= TARGETS.listBytes;
      rows.push({
        figure: `tools/list against a sandbox, ${mode}: ${tools.length} tools, about ${Math.round(bytes / BYTES_PER_TOKEN).toLocaleString("en-US")} tokens (${BYTES_PER_TOKEN} bytes a token)`,
        value: bytes,
        unit: "B",
        baselineLabel: "the most bytes a default list may take",
        baseline: TARGETS.listBytes,
        ...(mode === "default" && {
          target: {
            text: `≤ ${TARGETS.tools} tools, ≤ ${TARGETS.listBytes.toLocaleString("en-US")} B`,
            met: fits,
          },
        }),
      });
    } finally {
      await client.close();
    }
  }
  return rows;
}

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
    const rows: Row[] = [];
    for (const [label, pair, direct] of [
      ["a read, listCustomers (page_size 10)", listed, "GET /customers"],
      ["a write, createCustomer (each a new customer)", created, "POST /customers"],
    ] as const) {
      const value = median(pair.samples.mcp);
      const baseline = median(pair.samples.client);
      const added = (value - baseline) * 1000;
      const ping = median(pair.samples.ping) * 1000;
      rows.push(
        {
          figure: `tool call, ${label}, ${method}`,
          value: value * 1000,
          unit: "µs",
          spread: spreadOf(pair.rounds.mcp),
          baselineLabel: `the same ${direct} made with @org/payments-client`,
          baseline: baseline * 1000,
          baselineSpread: spreadOf(pair.rounds.client),
        },
        {
          figure: `what the server adds to ${label} (the two medians' difference): the protocol's round trip, the answer as structured content and text, the SDK's checks at both ends`,
          value: added,
          unit: "µs",
          baselineLabel: "an MCP ping over the same session (the round trip alone)",
          baseline: ping,
          target: {
            text: `≤ ${TARGETS.addedUs} µs and ≤ ×${TARGETS.addedPerPing}`,
            met: added <= TARGETS.addedUs && added <= TARGETS.addedPerPing * ping,
          },
        },
      );
    }
    return rows;
  } finally {
    await mcp.close();
  }
}

export async function measureMcp(): Promise<Row[]> {
  progress("mcp: starting a sandbox (payments-mock --stateful)");
  const sandbox = await startCli(["--stateful"]);
  try {
    return [
      ...(await listFigures(sandbox.url)),
      ...(await startFigures(sandbox.url)),
      ...(await callFigures(sandbox.url)),
    ];
  } finally {
    await sandbox.stop();
  }
}
