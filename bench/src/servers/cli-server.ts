// The built `payments-mock` command as users run it, in its own process: started and stopped,
// and timed from process start to its first answer.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { request } from "node:http";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { benchRequests } from "./requests.ts";

/** The installed command (bin/payments-mock.mjs, which checks Node's version and loads dist/cli.mjs). */
const command = join(
  dirname(createRequire(import.meta.url).resolve("@org/payments-mock/package.json")),
  "bin/payments-mock.mjs",
);
/** How often a starting server is asked for its first answer. */
const POLL_MS = 2;

export interface CliServer {
  url: string;
  /** Its process id, to read its CPU time from. */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** `payments-mock --quiet` with `args`, once it listens. */
export async function startCli(args: string[] = []): Promise<CliServer> {
  const child = spawn(process.execPath, [command, "--port", "0", "--quiet", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = once(child, "exit");
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    exited.then(() => reject(new Error(`payments-mock ${args.join(" ")} exited: ${output}`)));
  });
  return { url, pid: child.pid, stop: () => stop(child, exited) };
}

async function stop(child: ChildProcess, exited: Promise<unknown>) {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill("SIGTERM");
    await exited;
  }
}

/** A port nothing listens on now (the OS's pick for port 0). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (address === null || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/** The status of `GET /customers` on `port`, or undefined while nothing listens there. */
function firstAnswer(port: number): Promise<number | undefined> {
  const sent = benchRequests["GET /customers"];
  return new Promise((resolve, reject) => {
    const outgoing = request({
      host: "127.0.0.1",
      port,
      path: sent.path,
      headers: sent.headers,
      agent: false,
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) =>
      error.code === "ECONNREFUSED" ? resolve(undefined) : reject(error),
    );
    outgoing.on("response", (incoming) => {
      incoming.resume();
      incoming.on("end", () => resolve(incoming.statusCode));
    });
    outgoing.end();
  });
}

/**
 * Milliseconds from spawning `node <args…> --port <port>` to its first answer to
 * `GET /customers` (which must be 2xx), asked every POLL_MS until it comes.
 */
export async function startToFirstAnswer(args: string[]): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...args, "--port", String(port)], { stdio: "ignore" });
  const exited = once(child, "exit");
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(" ")} exited before it answered`);
      const status = await firstAnswer(port);
      if (status !== undefined) {
        if (status < 200 || status > 299) throw new Error(`first answer was ${status}, not 2xx`);
        return performance.now() - started;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await stop(child, exited);
  }
}

/** The arguments that start the built CLI as users run it, for startToFirstAnswer. */
export const cliCommand = [command, "--quiet"];
