// `npx payments-mock`, stopped by npm's process id (`kill $pid`, as the readiness guide's CI snippet
// does): npm passes no signal on to its script, so the CLI notices its parent gone and stops. Real
// processes: npm, its shell and the CLI; the server must stop answering after each signal.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it, onTestFinished } from "vitest";

// A project whose node_modules/.bin holds this package's payments-mock, as an install links it:
// npm exec finds it there, with no registry.
const dependent = mkdtempSync(path.join(tmpdir(), "payments-npm-pid-"));
afterAll(() => rmSync(dependent, { recursive: true, force: true }));
writeFileSync(path.join(dependent, "package.json"), '{ "name": "dependent", "private": true }\n');
mkdirSync(path.join(dependent, "node_modules/.bin"), { recursive: true });
symlinkSync(
  fileURLToPath(new URL("../bin/payments-mock.mjs", import.meta.url)),
  path.join(dependent, "node_modules/.bin/payments-mock"),
);

/** Whether something answers at `url`: false once the connection is refused. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

// SIGINT is left out: npm waits on it for its script, and its shell ignores it (Ctrl-C in a
// terminal reaches the CLI itself, in the same process group).
it.each(["SIGTERM", "SIGHUP"] as const)("stops the server once npm gets %s", async (signal) => {
  // npm exec, as npx runs it, with the repository's own payments-mock.
  const npm = spawn("npm", ["exec", "--offline", "--", "payments-mock", "--port", "0"], {
    cwd: dependent,
    env: { ...process.env, PORT: "", HOST: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  onTestFinished(() => {
    if (npm.exitCode === null) npm.kill("SIGKILL");
  });
  let stdout = "";
  const url = await new Promise<string>((resolve, reject) => {
    npm.stdout.on("data", (chunk) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    npm.on("close", () => reject(new Error(`npm exited before listening: ${stdout}`)));
  });
  expect(await answers(url)).toBe(true);
  npm.kill(signal);
  // Waits for the server to go: the test's own timeout is the bound.
  while (await answers(url)) await new Promise((resolve) => setTimeout(resolve, 200));
  expect(await answers(url)).toBe(false);
});
