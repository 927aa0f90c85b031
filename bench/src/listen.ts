// payments-mock listen against direct webhook delivery, in the same run, from the same sandbox
// (a SQLite file, its seed's webhook on every topic): each event reaches one receiver directly and
// another through `payments-mock listen --forward-to`, which reads the sandbox's event stream
// through a TCP relay the bench can cut. Both receivers are in the bench's process, so one clock
// times both. Three figures: the latency of single events, from the request that makes the event
// being sent to its arrival (p99 of 200, one at a time); a day's advance of 1,000 onboardings
// (their identifications reviewed, their autoramps approved), from the advance's start to the
// last event's arrival; and 20 connections of listen cut during that advance: every event the
// direct receiver got must reach the forwarded one once, none lost, none twice.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect, createServer as createTcpServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inParallel } from "./in-parallel.ts";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { call, onboard } from "./sandbox-clock.ts";
import { API_KEY, exampleDocuments } from "./servers/fixtures.ts";
import { webhookOnEveryTopic } from "./servers/receiver.ts";
import { binOf, startSandbox } from "./servers/stateful-peers.ts";
import { p99 } from "./stats.ts";

const SINGLE_EVENTS = 200;
const ONBOARDINGS = 1_000;
const RECONNECTS = 20;
const DAY_SECONDS = 86_400;
const SETUP_CONNECTIONS = 10;
/** The last event has arrived when none arrived for this long. */
const QUIET_MS = 1_500;
const TARGETS = { p99Ms: 50, p99Ratio: 2, dayRatio: 1.5 };

/** A receiver in the bench's process: each event's id and when (performance.now()) it arrived. */
interface Receiver {
  url: string;
  arrivals: { id: string; topic: string; dataId: string; at: number }[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const arrivals: Receiver["arrivals"] = [];
  const server: Server = createHttpServer((incoming, response) => {
    let text = "";
    incoming.on("data", (chunk: Buffer) => {
      text += chunk;
    });
    incoming.on("end", () => {
      const at = performance.now();
      const event = JSON.parse(text) as { id: string; topic: string; data: { id?: string } };
      arrivals.push({ id: event.id, topic: event.topic, dataId: String(event.data.id), at });
      response.writeHead(204).end();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A TCP relay to `port` whose connections the bench can cut (a network that drops). */
async function startRelay(port: number) {
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    const upstream = connect(port, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Cuts every open connection; resolves to how many there were. */
    cut() {
      const open = sockets.size;
      for (const socket of sockets) socket.destroy();
      return open;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** `payments-mock listen` forwarding every event to `receiver`; resolves once it says Ready. */
async function startListen(url: string, receiver: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      binOf("@org/payments-mock", "bin/payments-mock.mjs"),
      "listen",
      "--url",
      url,
      "--forward-to",
      receiver,
    ],
    { env: { ...process.env, PAYMENTS_API_KEY: API_KEY }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr?.resume();
  const deadline = Date.now() + 30_000;
  while (!stdout.includes("Ready")) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`listen did not start: ${stdout}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return child;
}

/** Resolves once `done()` holds; fails after `ms`. */
async function until(done: () => boolean, what: string, ms = 30_000) {
  const deadline = performance.now() + ms;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Resolves with the time of the last arrival once none has arrived for QUIET_MS. */
async function lastArrival(receiver: Receiver, from: number): Promise<number> {
  let count = receiver.arrivals.length;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    if (receiver.arrivals.length === count) break;
    count = receiver.arrivals.length;
  }
  return Math.max(from, ...receiver.arrivals.map((arrival) => arrival.at));
}

export async function measureListen(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "bench-listen-"));
  const direct = await startReceiver();
  const forwarded = await startReceiver();
  const seed = join(dir, "seed.json");
  writeFileSync(
    seed,
    JSON.stringify({
      customers: [],
      documents: exampleDocuments,
      webhooks: [webhookOnEveryTopic(direct.url)],
    }),
  );
  const sandbox = await startSandbox(dir, seed);
  const relay = await startRelay(Number(new URL(sandbox.url).port));
  let listen: ChildProcess | undefined;
  try {
    listen = await startListen(relay.url, `${forwarded.url}/listen`);
    progress(`listen: ${SINGLE_EVENTS} single events`);
    const directMs: number[] = [];
    const forwardedMs: number[] = [];
    for (let index = 0; index < SINGLE_EVENTS; index++) {
      const sent = performance.now();
      const customer = await call(sandbox.url, "POST", "/customers", {
        customer_type: "Person",
        email: `listen${index}@example.com`,
      });
      const arrived = (receiver: Receiver) =>
        receiver.arrivals.find(
          (arrival) => arrival.topic === "CustomerCreated" && arrival.dataId === customer.id,
        );
      await until(
        () => arrived(direct) !== undefined && arrived(forwarded) !== undefined,
        "an event arrived",
      );
      directMs.push((arrived(direct)?.at ?? 0) - sent);
      forwardedMs.push((arrived(forwarded)?.at ?? 0) - sent);
    }

    progress(`listen: onboarding ${ONBOARDINGS} customers`);
    const customers = await inParallel(ONBOARDINGS, SETUP_CONNECTIONS, (index) =>
      onboard(sandbox.url, index),
    );
    await inParallel(ONBOARDINGS, SETUP_CONNECTIONS, (index) =>
      call(sandbox.url, "POST", `/customers/${customers[index]?.customer}/identifications`, {
        type: "Direct",
      }),
    );
    await lastArrival(direct, 0);
    await lastArrival(forwarded, 0);
    const before = { direct: direct.arrivals.length, forwarded: forwarded.arrivals.length };

    progress(`listen: a day's advance, ${RECONNECTS} connections of listen cut meanwhile`);
    let cuts = 0;
    const cutter = setInterval(() => {
      if (relay.cut() > 0) cuts++;
      if (cuts >= RECONNECTS) clearInterval(cutter);
    }, 100);
    const started = performance.now();
    await call(sandbox.url, "POST", "/_sandbox/clock/advance", { seconds: DAY_SECONDS });
    const directDone = (await lastArrival(direct, started)) - started;
    await until(() => cuts >= RECONNECTS, `${RECONNECTS} cuts`, 60_000);
    const forwardedDone = (await lastArrival(forwarded, started)) - started;
    clearInterval(cutter);

    const directIds = new Set(direct.arrivals.map((arrival) => arrival.id));
    const forwardedIds = forwarded.arrivals.map((arrival) => arrival.id);
    const lost = [...directIds].filter((id) => !forwardedIds.includes(id)).length;
    const twice = forwardedIds.length - new Set(forwardedIds).size;
    const dayEvents = direct.arrivals.length - before.direct;
    return [
      {
        figure: `request sent → local receiver through payments-mock listen, p99 of ${SINGLE_EVENTS} events one at a time`,
        value: p99(forwardedMs),
        unit: "ms",
        baselineLabel: "the same events delivered directly to a webhook",
        baseline: p99(directMs),
        target: {
          text: `≤ ${TARGETS.p99Ms} ms and ≤ ×${TARGETS.p99Ratio}`,
          met:
            p99(forwardedMs) <= TARGETS.p99Ms &&
            p99(forwardedMs) / p99(directMs) <= TARGETS.p99Ratio,
        },
      },
      {
        figure: `a day's advance of ${ONBOARDINGS.toLocaleString("en-US")} onboardings (${dayEvents.toLocaleString("en-US")} events): start → last event forwarded by listen, ${cuts} of its connections cut`,
        value: forwardedDone,
        unit: "ms",
        baselineLabel: "start → last event delivered directly",
        baseline: directDone,
        target: {
          text: `≤ ×${TARGETS.dayRatio}`,
          met: forwardedDone / directDone <= TARGETS.dayRatio,
        },
      },
      {
        figure: `the same: events lost (${lost}) and forwarded twice (${twice}) through the ${cuts} cuts`,
        value: lost + twice,
        unit: "",
        baselineLabel: "events delivered directly",
        baseline: directIds.size,
        target: { text: "0", met: lost + twice === 0 },
      },
    ];
  } finally {
    listen?.kill("SIGTERM");
    if (listen !== undefined && listen.exitCode === null) await once(listen, "exit");
    await relay.close();
    await sandbox.stop();
    await direct.close();
    await forwarded.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
