// The stateful sandbox and the stateful mocks a partner would otherwise pick, each started as its
// README starts it, with its defaults (its request log on), in its own process on 127.0.0.1:
// `payments-mock --stateful --state <file>`, json-server 0.17 (`json-server db.json`, its data in
// that file) and Mockoon CLI's CRUD route on a data bucket (`mockoon-cli start --data
// environment.json`, its data in memory). Each answers once it is ready.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { freePort } from "./cli-server.ts";
import { cpuMsOf, threadsCpuMsOf } from "./cpu-time.ts";
import { API_KEY } from "./fixtures.ts";

export interface Peer {
  url: string;
  /** CPU time (user and system, all its threads) the process has used so far, in ms. */
  cpuMs(): number;
  /** The same, read to the nanosecond from its threads' run times (threadsCpuMsOf). */
  threadsCpuMs(): number;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);
/** How long a peer may take to answer its first request. */
const READY_MS = 60_000;

export function binOf(name: string, bin: string): string {
  return join(dirname(require.resolve(`${name}/package.json`)), bin);
}

/**
 * Spawns `node <script> …args` and waits until `readyPath` answers 200. `home` is the process's
 * home folder (Mockoon writes its log file there).
 */
async function startPeer(
  name: string,
  script: string,
  args: string[],
  port: number,
  readyPath: string,
  home: string,
): Promise<Peer> {
  const child: ChildProcess = spawn(process.execPath, [script, ...args], {
    // Each one's request log is written, and goes nowhere.
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, HOME: home },
  });
  const exited = once(child, "exit");
  let errors = "";
  child.stderr?.on("data", (chunk) => {
    errors += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
  };
  const deadline = Date.now() + READY_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited at start: ${errors}`);
    const status = await fetch(`${url}${readyPath}`, { headers: { "X-API-Key": API_KEY } }).then(
      (response) => response.arrayBuffer().then(() => response.status),
      () => undefined,
    );
    if (status === 200)
      return {
        url,
        cpuMs: () => cpuMsOf(child.pid),
        threadsCpuMs: () => threadsCpuMsOf(child.pid),
        stop,
      };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `${name} did not answer ${readyPath} with 200 within ${READY_MS} ms (last: ${status}): ${errors}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The sandbox on a new SQLite file `<dir>/sandbox.db` (or on `state`, a Postgres URL), from the
 * seed file `seed`, which the bench's key's partner holds; `flags` are more of the CLI's.
 */
export async function startSandbox(
  dir: string,
  seed: string,
  state?: string,
  flags: string[] = [],
): Promise<Peer> {
  const port = await freePort();
  return startPeer(
    "payments-mock",
    binOf("@org/payments-mock", "bin/payments-mock.mjs"),
    [
      "--stateful",
      "--state",
      state ?? join(dir, "sandbox.db"),
      "--seed",
      seed,
      "--example-key",
      API_KEY,
      "--port",
      String(port),
      ...flags,
    ],
    port,
    "/customers?page_size=1",
    dir,
  );
}

/** json-server on `<dir>/db.json` holding `customers`. */
export async function startJsonServer(dir: string, customers: object[]): Promise<Peer> {
  const db = join(dir, "db.json");
  writeFileSync(db, JSON.stringify({ customers }, null, 2));
  const port = await freePort();
  return startPeer(
    "json-server",
    binOf("json-server", "lib/cli/bin.js"),
    [db, "--port", String(port), "--host", "127.0.0.1"],
    port,
    "/customers?_page=1&_limit=1",
    dir,
  );
}

/**
 * Mockoon CLI on an environment with one CRUD route, `/customers`, on a data bucket holding
 * `customers`; its log file goes to `<dir>/.mockoon-cli/logs`.
 */
export async function startMockoon(dir: string, customers: object[]): Promise<Peer> {
  const environment = JSON.parse(
    readFileSync(new URL("./mockoon-environment.json", import.meta.url), "utf8"),
  );
  environment.data[0].value = JSON.stringify(customers);
  const data = join(dir, "mockoon-environment.json");
  writeFileSync(data, JSON.stringify(environment));
  const port = await freePort();
  return startPeer(
    "Mockoon CLI",
    binOf("@mockoon/cli", "bin/run.js"),
    ["start", "--data", data, "--port", String(port), "--hostname", "127.0.0.1"],
    port,
    "/customers?page=1&limit=1",
    dir,
  );
}
