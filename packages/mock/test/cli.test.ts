// The built CLI, as a user runs it: it must print its URL, serve, and exit cleanly on a signal.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { specPath } from "@org/payments-spec";
import { describe, expect, it, type TestContext } from "vitest";
import { startMock } from "../src/index.js";
import { API_KEY } from "./support/spec-requests.js";

const cli = fileURLToPath(new URL("../dist/cli.mjs", import.meta.url));
/** Runs the CLI; the process is killed when the test ends, passed or failed. */
function run(context: TestContext, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [cli, ...args], {
    env: { ...process.env, PORT: "", HOST: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  context.onTestFinished(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  const url = new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", () => {
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    exited.then(() => reject(new Error(`exited before listening: ${stderr}`)));
  });
  // Tests that expect an early exit never await the URL.
  url.catch(() => {});
  return { child, url, exited, output: () => ({ stdout, stderr }) };
}

// Concurrent: each test waits mostly for a CLI process to load Prism.
describe.concurrent("payments-mock CLI", () => {
  it.for(["SIGTERM", "SIGINT"] as const)(
    "serves the bundled spec and exits 0 on %s",
    async (signal, context) => {
      const mock = run(context, ["--port", "0"]);
      const url = await mock.url;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${url}/webhooks`, {
        headers: { "X-API-Key": API_KEY },
        signal: AbortSignal.timeout(5000),
      });
      expect(response.status).toBe(200);

      mock.child.kill(signal);
      expect(await mock.exited).toEqual([0, null]);
      await expect(fetch(`${url}/webhooks`)).rejects.toThrow();
      expect(mock.output().stdout).toContain("GET /webhooks → 200");
    },
  );

  it("takes PORT and HOST from the environment", async (context) => {
    const mock = run(context, [], { PORT: "0", HOST: "127.0.0.1" });
    expect(await mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("prints its usage on --help", async (context) => {
    const help = run(context, ["--help"]);
    expect((await help.exited)[0]).toBe(0);
    expect(help.output().stdout).toContain("--dynamic");
  });

  it.for<[string[], string]>([
    [["--colour"], "--colour"],
    [["--port", "http"], '--port must be an integer from 0 to 65535, got "http"'],
    [["--port", "70000"], "--port must be an integer"],
    [["extra"], "extra"],
  ])("rejects %j with a clear message and exit code 2", async ([args, message], context) => {
    const mock = run(context, args);
    expect((await mock.exited)[0]).toBe(2);
    expect(mock.output().stderr).toContain(message);
  });

  it("exits 1 with a clear message when the port is busy", async (context) => {
    const busy = await startMock({ port: 0, spec: specPath });
    try {
      const mock = run(context, ["--port", String(busy.port)]);
      expect((await mock.exited)[0]).toBe(1);
      expect(mock.output().stderr).toContain(`Port ${busy.port} on 127.0.0.1 is already in use`);
    } finally {
      await busy.stop();
    }
  });
});
