// Every client-side command reads its key from PAYMENTS_API_KEY and never prints it: not on
// success, not when the URL is wrong, the sandbox unreachable or the answer an error. Each command
// runs against each target in its default format; another format runs where it prints something
// else: against the sandbox (its report, step lines or ready line) and, for fixtures and trigger, against
// a path that answers 404 (its failed step's line). The other failures (no sandbox, not a URL, an
// error answer) are one line on stderr, made before and whatever the format.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { specPath } from "@org/payments-spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturesMain } from "../src/fixtures-cli.js";
import { impactMain } from "../src/impact-cli.js";
import { type RunningSandbox, startMock } from "../src/index.js";
import { readinessMain } from "../src/readiness-cli.js";
import { triggerMain } from "../src/trigger-cli.js";
import { runCli } from "./support/run-cli.js";
import { runMain } from "./support/run-main.js";

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

type Target =
  | "the sandbox"
  | "a sandbox path that answers 404"
  | "an unreachable sandbox"
  | "a malformed URL";
const TARGETS: Record<Target, () => string> = {
  "the sandbox": () => sandbox.url,
  "a sandbox path that answers 404": () => `${sandbox.url}/no-such-prefix`,
  "an unreachable sandbox": () => unreachable,
  "a malformed URL": () => "not a url",
};
const EVERY_TARGET = Object.keys(TARGETS) as Target[];

const COMMANDS: [string, string[], Target[]][] = [
  ["fixtures", ["fixtures", fixture], EVERY_TARGET],
  [
    "fixtures --format json",
    ["fixtures", fixture, "--format", "json"],
    ["the sandbox", "a sandbox path that answers 404"],
  ],
  ["trigger", ["trigger", "CustomerCreated"], EVERY_TARGET],
  [
    "trigger --format json",
    ["trigger", "CustomerCreated", "--format", "json"],
    ["the sandbox", "a sandbox path that answers 404"],
  ],
  ["listen", ["listen"], EVERY_TARGET],
  ["listen --format json", ["listen", "--format", "json"], ["the sandbox"]],
  ["logs tail", ["logs", "tail"], EVERY_TARGET],
  ["logs tail --format json", ["logs", "tail", "--format", "json"], ["the sandbox"]],
  ["readiness", ["readiness"], EVERY_TARGET],
  ["readiness --format json", ["readiness", "--format", "json"], ["the sandbox"]],
  ["impact", ["impact", "--against", specPath], EVERY_TARGET],
  ["impact --format json", ["impact", "--against", specPath, "--format", "json"], ["the sandbox"]],
];

describe.concurrent.each(COMMANDS)("payments-mock %s", (_name, args, targets) => {
  it.for(targets)("never prints the key, against %s", async (target, context) => {
    const url = TARGETS[target];
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

// The key pasted where a flag's value or an argument goes: the usage error quoted it. Every command
// says its usage errors through one function; the commands that run in the test's process show it.
/** A URL nothing is sent to: each command refuses its arguments first. */
const NOWHERE = "http://127.0.0.1:1";

describe("a usage error that quotes the key given in the wrong place", () => {
  it.for([
    { command: "readiness", where: "as --url", main: readinessMain, argv: ["--url", KEY] },
    {
      command: "readiness",
      where: "as --format",
      main: readinessMain,
      argv: ["--url", NOWHERE, "--format", KEY],
    },
    { command: "readiness", where: "as a flag", main: readinessMain, argv: [`--${KEY}`] },
    { command: "trigger", where: "as the topic", main: triggerMain, argv: [KEY, "--url", NOWHERE] },
    {
      command: "impact",
      where: "as --format",
      main: impactMain,
      argv: ["--against", specPath, "--format", KEY],
    },
    {
      command: "fixtures",
      where: "as --format",
      main: fixturesMain,
      argv: [fixture, "--format", KEY],
    },
  ])("payments-mock $command: the key given $where is not printed", async ({ main, argv }) => {
    const run = await runMain(main, argv, { PAYMENTS_API_KEY: KEY });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("[API key]");
    expect(run.stdout + run.stderr).not.toContain("SECRETKEY");
  });
});
