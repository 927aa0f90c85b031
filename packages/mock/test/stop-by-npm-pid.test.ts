// `npx payments-mock` and an npm script that runs it (the stateful sandbox on a file), stopped by
// npm's process id (`kill $pid`, as the readiness guide's CI snippet does), and `npx payments-mock
// proxy` likewise (the proxy guide's): npm's shell passes no signal on to its command, so the CLI
// notices the shell gone and stops. Real processes: npm, its
// shell and the CLI; the server must stop answering after each signal. `npx payments-mock listen`
// and `npx payments-mock logs tail` stop so too, listen first finishing the event it is
// forwarding: its line printed, its cursor kept in --cursor-file.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { specPath } from "@org/payments-spec";
import { call, newKey } from "@org/payments-testing";
import { afterAll, expect, it, onTestFinished } from "vitest";
import { startMock } from "../src/index.js";

// A project whose node_modules/.bin holds this package's payments-mock, as an install links it:
// npm exec finds it there, with no registry.
const dependent = mkdtempSync(path.join(tmpdir(), "payments-npm-pid-"));
afterAll(() => rmSync(dependent, { recursive: true, force: true }));
// Its script serves the stateful sandbox on a state file, as a partner's `npm run` would.
writeFileSync(
  path.join(dependent, "package.json"),
  `${JSON.stringify({
    name: "dependent",
    private: true,
    scripts: { sandbox: "payments-mock --stateful --state sandbox.db --port 0" },
  })}\n`,
);
mkdirSync(path.join(dependent, "node_modules/.bin"), { recursive: true });
symlinkSync(
  fileURLToPath(new URL("../bin/payments-mock.mjs", import.meta.url)),
  path.join(dependent, "node_modules/.bin/payments-mock"),
);

/** Whether something answers at `url`: false once the connection is refused. */
async function answers(url: string): Promise<boolean> {
  for (;;) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return true;
    } catch (error) {
      if ((error as { cause?: { code?: string } }).cause?.code === "ECONNREFUSED") return false;
      // Slow (a loaded machine) or reset while stopping: asked again, until it answers or refuses.
    }
  }
}

/**
 * npm exec, as npx runs it; and npm run of a script (`npm start` is one), the stateful sandbox;
 * and the validating proxy under npx, as the proxy guide's CI snippet starts and stops it.
 */
const HOW = {
  "npx payments-mock": ["exec", "--offline", "--", "payments-mock", "--port", "0"],
  "npm run sandbox": ["run", "--offline", "sandbox"],
  "npx payments-mock proxy": [
    "exec",
    "--offline",
    "--",
    "payments-mock",
    "proxy",
    "http://127.0.0.1:9",
    "--port",
    "0",
  ],
} as const;

// SIGINT is left out: npm passes it to its shell, which holds it until its command ends (Ctrl-C in
// a terminal reaches the CLI itself, in the same process group).
it.for([
  ...(["SIGTERM", "SIGHUP"] as const).flatMap((signal) =>
    (["npx payments-mock", "npm run sandbox"] as const).map((how) => [how, signal] as const),
  ),
  ["npx payments-mock proxy", "SIGTERM"] as const,
])("stops the server of `%s` once npm gets %s", async ([how, signal]) => {
  // With the repository's own payments-mock.
  const npm = spawn("npm", [...HOW[how]], {
    cwd: dependent,
    env: { ...process.env, PORT: "", HOST: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  onTestFinished(() => {
    if (npm.exitCode === null) npm.kill("SIGKILL");
  });
  let stdout = "";
  const closed = once(npm, "close");
  const url = await new Promise<string>((resolve, reject) => {
    npm.stdout.on("data", (chunk) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    void closed.then(() => reject(new Error(`npm exited before listening: ${stdout}`)));
  });
  expect(await answers(url)).toBe(true);
  npm.kill(signal);
  // Waits for the server to go: the test's own timeout is the bound.
  while (await answers(url)) await new Promise((resolve) => setTimeout(resolve, 200));
  expect(await answers(url)).toBe(false);
  // npm itself ends too, its shell and command gone.
  await closed;
  // The proxy stops as on a signal: its summary (of the probes above, paths of no operation).
  if (how === "npx payments-mock proxy") {
    expect(stdout).toMatch(/^payments-mock proxy: \d+ violations?$/m);
  }
});

/** Runs `npm exec --offline -- payments-mock <args>` in the dependent project, as npx does. */
function npx(args: string[], env: Record<string, string>) {
  const npm = spawn("npm", ["exec", "--offline", "--", "payments-mock", ...args], {
    cwd: dependent,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so that what a failing test leaves (the CLI under npm's shell) is
    // killed with npm.
    detached: true,
  });
  onTestFinished(() => {
    if (npm.exitCode === null && npm.pid !== undefined) process.kill(-npm.pid, "SIGKILL");
  });
  let stdout = "";
  npm.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  const closed = once(npm, "close");
  /** Resolves once standard output matches `pattern`. */
  const printed = async (pattern: RegExp) => {
    let ended = false;
    void closed.then(() => {
      ended = true;
    });
    while (!pattern.test(stdout)) {
      if (ended) throw new Error(`npm exited before printing ${pattern}: ${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  return { npm, closed, printed, stdout: () => stdout };
}

it("stops `npx payments-mock listen` once npm gets SIGTERM, after the event it is forwarding", async () => {
  const sandbox = await startMock({ spec: specPath, stateful: true, port: 0 });
  onTestFinished(() => sandbox.stop());
  const key = `npm-pid-listen-${crypto.randomUUID()}`;
  // A receiver that holds its answer until told: the event is in flight as npm is killed.
  let held: ServerResponse | undefined;
  const receiver = createServer((request, response) => {
    request.resume();
    held = response;
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  onTestFinished(() => {
    receiver.closeAllConnections();
    receiver.close();
  });
  const cursorFile = path.join(dependent, "listen.cursor");
  const listen = npx(
    [
      "listen",
      "--url",
      sandbox.url,
      "--forward-to",
      `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
      "--cursor-file",
      cursorFile,
      "--format",
      "json",
    ],
    { PAYMENTS_API_KEY: key },
  );
  await listen.printed(/"type":"ready"/);
  const created = await call(sandbox.url, "POST", "/customers", {
    body: { customer_type: "Person", email: "npm-pid@example.com" },
    headers: { ...newKey(), "X-API-Key": key },
  });
  expect(created.status).toBe(200);
  while (held === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
  listen.npm.kill("SIGTERM");
  // Past the half second in which the CLI notices npm gone: it waits on the receiver's answer.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  held.writeHead(204).end();
  await listen.closed;
  const line = listen
    .stdout()
    .split("\n")
    .find((text) => text.includes('"type":"event"'));
  expect(line).toBeDefined();
  const event = JSON.parse(line as string);
  expect(event).toMatchObject({ topic: "CustomerCreated" });
  // The event's cursor, then the line that binds the file to its key.
  expect(readFileSync(cursorFile, "utf8").split("\n")[0]).toBe(`${event.cursor}`);
  expect(listen.stdout()).not.toContain(key);
});

it("stops `npx payments-mock logs tail` once npm gets SIGTERM", async () => {
  const sandbox = await startMock({ spec: specPath, stateful: true, port: 0 });
  onTestFinished(() => sandbox.stop());
  const key = `npm-pid-logs-${crypto.randomUUID()}`;
  const tail = npx(["logs", "tail", "--url", sandbox.url], { PAYMENTS_API_KEY: key });
  await tail.printed(/^Ready/m);
  expect(
    (await call(sandbox.url, "GET", "/customers", { headers: { "X-API-Key": key } })).status,
  ).toBe(200);
  await tail.printed(/GET +\/customers +→ 200/);
  tail.npm.kill("SIGTERM");
  // npm ends once its shell and the CLI have: the test's own timeout is the bound.
  await tail.closed;
});
