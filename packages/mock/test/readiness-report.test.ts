// The readiness report of a running sandbox through the mock's CLI, driven as a partner's
// integration would be (driveIntegration: a report that is not ready, naming TransactionStatus):
// `payments-mock readiness` prints it as JSON and JUnit with exit code 1, from the running
// sandbox and from its store, and never prints the key (the built CLI); the other runs are of its
// main, in this process.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { specPath } from "@org/payments-spec";
import {
  driveIntegration,
  readinessOf,
  startTestSandbox,
  type TestSandbox,
} from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, type SandboxPartner, startMock } from "../src/index.js";
import { readinessMain } from "../src/readiness-cli.js";
import { runCli } from "./support/run-cli.js";
import { runMain } from "./support/run-main.js";

let sandbox: TestSandbox<RunningSandbox>;
let a: SandboxPartner;
let stopReceiver: () => Promise<void>;
const readiness = readinessOf;

const dir = mkdtempSync(join(tmpdir(), "payments-readiness-report-"));

beforeAll(async () => {
  // On a SQLite file, which `--state` reads.
  sandbox = await startTestSandbox(
    (state) => startMock({ spec: specPath, stateful: true, state }),
    { state: join(dir, "readiness.db") },
  );
  a = sandbox.server.newPartner();
  const { receiver } = await driveIntegration(a);
  stopReceiver = () => receiver.stop();
});

afterAll(async () => {
  await sandbox?.stop();
  await stopReceiver?.();
  rmSync(dir, { recursive: true, force: true });
});

describe("payments-mock readiness", () => {
  it("prints A's report as JSON from the running sandbox and exits 1 (not ready)", async (context) => {
    const cli = runCli(context, ["readiness", "--url", sandbox.url, "--format", "json"], {
      PAYMENTS_API_KEY: a.apiKey,
    });
    expect(await cli.exited).toEqual([1, null]);
    const { stdout, stderr } = cli.output();
    expect(JSON.parse(stdout)).toEqual(await readiness(a));
    expect(stdout + stderr).not.toContain(a.apiKey);
  });

  it("prints JUnit with one test case per check, the failing one naming TransactionStatus", async () => {
    const { code, stdout } = await runMain(
      readinessMain,
      ["--url", sandbox.url, "--format", "junit"],
      { PAYMENTS_API_KEY: a.apiKey },
    );
    expect(code).toBe(1);
    const report = await readiness(a);
    expect(stdout.match(/<testcase /g)).toHaveLength(report.checks.length);
    const webhooks = /<testcase [^>]*name="webhooks-acknowledged[^"]*">([\s\S]*?)<\/testcase>/.exec(
      stdout,
    );
    expect(webhooks?.[1]).toMatch(/<failure [^>]*message="[^"]*TransactionStatus/);
    expect(stdout).toMatch(/<testcase [^>]*name="person-active[^"]*">\s*<system-out>/);
    expect(stdout).toMatch(/<testcase [^>]*name="quote[^"]*">\s*<skipped /);
  });

  it("reads the sandbox's store with --state", async () => {
    const state = sandbox.state as string;
    const run = await runMain(readinessMain, ["--state", state, "--format", "json"], {
      PAYMENTS_API_KEY: a.apiKey,
    });
    expect(run.code).toBe(1);
    const fromStore = JSON.parse(run.stdout);
    expect(fromStore).toEqual(await readiness(a));
  });

  it("exits 2 without PAYMENTS_API_KEY, with two sources, or an unknown format", async () => {
    const runs = await Promise.all([
      runMain(readinessMain, ["--url", sandbox.url], { PAYMENTS_API_KEY: "" }),
      runMain(readinessMain, ["--url", sandbox.url, "--state", "x.db"], {
        PAYMENTS_API_KEY: "k",
      }),
      runMain(readinessMain, ["--url", sandbox.url, "--format", "xml"], {
        PAYMENTS_API_KEY: "k",
      }),
    ]);
    expect(runs.map((run) => run.code)).toEqual([2, 2, 2]);
    expect(runs[0]?.stderr).toContain("PAYMENTS_API_KEY");
    expect(runs[1]?.stderr).toContain("not --state and --url");
    expect(runs[2]?.stderr).toContain("--format must be one of text, json, markdown, junit");
  });
});
