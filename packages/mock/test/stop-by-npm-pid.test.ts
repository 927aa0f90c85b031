// `npx payments-mock` and an npm script that runs it (the stateful sandbox on a file), stopped by
// npm's process id (`kill $pid`, as the readiness guide's CI snippet does), and `npx payments-mock
// proxy` likewise (the proxy guide's): npm's shell passes no signal on to its command, so the CLI
// notices the shell gone and stops. Real processes: npm, its
// shell and the CLI; the server must stop answering after each signal.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it, onTestFinished } from "vitest";

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
