// The readiness report of a running sandbox through the mock's CLI, driven as a partner's
// integration would be (driveIntegration: a report that is not ready, naming TransactionStatus):
// `payments-mock readiness` prints it as JSON and JUnit with exit code 1, from the running
// sandbox and from its store, and never prints the key.
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
import { runCli } from "./support/run-cli.js";

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

  it("prints JUnit with one test case per check, the failing one naming TransactionStatus", async (context) => {
    const cli = runCli(context, ["readiness", "--url", sandbox.url, "--format", "junit"], {
      PAYMENTS_API_KEY: a.apiKey,
    });
    expect(await cli.exited).toEqual([1, null]);
    const { stdout } = cli.output();
    const report = await readiness(a);
    expect(stdout.match(/<testcase /g)).toHaveLength(report.checks.length);
    const webhooks = /<testcase [^>]*name="webhooks-acknowledged[^"]*">([\s\S]*?)<\/testcase>/.exec(
      stdout,
    );
    expect(webhooks?.[1]).toMatch(/<failure [^>]*message="[^"]*TransactionStatus/);
    expect(stdout).toMatch(/<testcase [^>]*name="person-active[^"]*">\s*<system-out>/);
    expect(stdout).toMatch(/<testcase [^>]*name="quote[^"]*">\s*<skipped /);
  });

  it("reads the sandbox's store with --state", async (context) => {
    const state = sandbox.state as string;
    const cli = runCli(context, ["readiness", "--state", state, "--format", "json"], {
      PAYMENTS_API_KEY: a.apiKey,
    });
    expect(await cli.exited).toEqual([1, null]);
    const fromStore = JSON.parse(cli.output().stdout);
    expect(fromStore).toEqual(await readiness(a));
  });

  it("exits 2 without PAYMENTS_API_KEY, with two sources, or an unknown format", async (context) => {
    const runs = [
      runCli(context, ["readiness", "--url", sandbox.url], { PAYMENTS_API_KEY: "" }),
      runCli(context, ["readiness", "--url", sandbox.url, "--state", "x.db"], {
        PAYMENTS_API_KEY: "k",
      }),
      runCli(context, ["readiness", "--url", sandbox.url, "--format", "xml"], {
        PAYMENTS_API_KEY: "k",
      }),
    ];
    const outcomes = await Promise.all(runs.map((run) => run.exited));
    expect(outcomes).toEqual(runs.map(() => [2, null]));
    expect(runs[0]?.output().stderr).toContain("PAYMENTS_API_KEY");
    expect(runs[1]?.output().stderr).toContain("not --state and --url");
    expect(runs[2]?.output().stderr).toContain(
      "--format must be one of text, json, markdown, junit",
    );
  });
});
