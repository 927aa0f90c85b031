// Runs the built CLI as a user does, for the CLI tests; the process is killed when the test (or,
// for processes a file's tests share, the file) ends.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import type { TestContext } from "vitest";

const cli = fileURLToPath(new URL("../../dist/cli.mjs", import.meta.url));
/** What a process belongs to: a test (its context), or a file's tests (fileScope()). */
type Owner = Pick<TestContext, "onTestFinished">;

/**
 * An owner for processes that a file's tests share (each test its own API key, as partners are
 * kept apart): `stop` kills them, in the file's afterAll.
 */
export function fileScope(): Owner & { stop(): void } {
  const stops: (() => void)[] = [];
  return {
    onTestFinished: (stop) => {
      stops.push(stop as () => void);
    },
    stop: () => {
      for (const stop of stops.splice(0)) stop();
    },
  };
}

/** Runs the CLI; the process is killed when its owner (a test, or a file) ends, passed or failed. */
export function runCli(context: Owner, args: string[], env: Record<string, string> = {}) {
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
  // "close", not "exit": a process's output may still be in its pipes when it has exited.
  const exited = once(child, "close") as Promise<[number | null, NodeJS.Signals | null]>;
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
