// Every client-side command reads its key from PAYMENTS_API_KEY and never prints it: not on
// success, not when the URL is wrong, the sandbox unreachable or the answer an error.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { specPath } from "@org/payments-spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startMock } from "../src/index.js";
import { runCli } from "./support/run-cli.js";

const KEY = "pk_test_SECRETKEY_cli_never_printed";
let sandbox: RunningSandbox;
let unreachable: string;
const folder = mkdtempSync(path.join(tmpdir(), "payments-cli-key-"));
const fixture = path.join(folder, "steps.json");
writeFileSync(
  fixture,
  JSON.stringify({ steps: [{ name: "list", method: "GET", path: "/customers" }] }),
);

beforeAll(async () => {
  sandbox = await startMock({ spec: specPath, stateful: true, port: 0 });
  // A port that was free a moment ago: nothing answers there.
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const address = server.address();
  unreachable = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 1}`;
  await new Promise((resolve) => server.close(resolve));
});
afterAll(async () => {
  await sandbox.stop();
  rmSync(folder, { recursive: true, force: true });
});

const COMMANDS: [string, string[]][] = [
  ["fixtures", ["fixtures", fixture]],
  ["fixtures --format json", ["fixtures", fixture, "--format", "json"]],
  ["trigger", ["trigger", "customer.created"]],
  ["listen", ["listen"]],
  ["logs tail", ["logs", "tail"]],
  ["logs tail --format json", ["logs", "tail", "--format", "json"]],
  ["readiness", ["readiness"]],
  ["readiness --format json", ["readiness", "--format", "json"]],
  ["impact", ["impact", "--against", specPath]],
  ["impact --format json", ["impact", "--against", specPath, "--format", "json"]],
];
const TARGETS: [string, () => string][] = [
  ["the sandbox", () => sandbox.url],
  ["a sandbox path that answers 404", () => `${sandbox.url}/no-such-prefix`],
  ["an unreachable sandbox", () => unreachable],
  ["a malformed URL", () => "not a url"],
];

describe.concurrent.each(COMMANDS)("payments-mock %s", (_name, args) => {
  it.for(TARGETS)("never prints the key, against %s", async ([, url], context) => {
    const run = runCli(context, [...args, "--url", url()], { PAYMENTS_API_KEY: KEY });
    // listen and logs tail run until stopped: once one says it is ready (or what went wrong), it
    // has read the key and used it, so stop it then.
    const said = new Promise<void>((resolve) => {
      const onData = () => {
        const { stdout, stderr } = run.output();
        if (/^(?:Ready\b|\{"type":"ready")/m.test(stdout) || stderr.trim() !== "") resolve();
      };
      run.child.stdout?.on("data", onData);
      run.child.stderr?.on("data", onData);
    });
    await Promise.race([run.exited, said]);
    if (run.child.exitCode === null) run.child.kill("SIGINT");
    await run.exited;
    const { stdout, stderr } = run.output();
    expect(stdout + stderr).not.toContain(KEY);
    expect(stdout + stderr).not.toContain("SECRETKEY");
  });
});
