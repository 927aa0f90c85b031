// A file an option names must be a regular file: a FIFO (named pipe) made every command that read
// or appended to it wait for ever for a writer or a reader, a device such as /dev/zero never ends,
// a directory cannot be read. Each is refused at once, naming the option and the rule, with exit
// code 2. The commands run as the built CLI: a command that still opened a FIFO would block its
// own process (killed when the test ends), not the test's.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { specPath } from "@org/payments-spec";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./support/run-cli.js";

const folder = mkdtempSync(path.join(tmpdir(), "payments-mock-files-"));
const fifo = path.join(folder, "pipe");
execFileSync("mkfifo", [fifo]);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A sandbox URL nothing listens on: no command gets as far as asking it. */
const NOWHERE = "http://127.0.0.1:1";

describe.concurrent("a file option given a FIFO", () => {
  it.for([
    { args: ["--port", "0", "--spec", fifo], option: "--spec" },
    { args: ["--port", "0", "--stateful", "--seed", fifo], option: "--seed" },
    {
      args: ["--port", "0", "--stateful", "--readiness-profile", fifo],
      option: "--readiness-profile",
    },
    { args: ["proxy", NOWHERE, "--port", "0", "--spec", fifo], option: "--spec" },
    { args: ["proxy", NOWHERE, "--port", "0", "--report", fifo], option: "--report" },
    { args: ["proxy", NOWHERE, "--port", "0", "--traffic", fifo], option: "--traffic" },
    { args: ["readiness", "--from", fifo], option: "--from" },
    {
      args: ["readiness", "--state", path.join(folder, "none.db"), "--readiness-profile", fifo],
      option: "--readiness-profile",
    },
    { args: ["impact", "--against", fifo, "--url", NOWHERE], option: "--against" },
    {
      args: ["impact", "--against", specPath, "--from", fifo],
      option: "--from",
    },
    { args: ["listen", "--url", NOWHERE, "--cursor-file", fifo], option: "--cursor-file" },
  ])("is refused at once, naming it: $args.0 $option", async ({ args, option }, context) => {
    const run = runCli(context, args, { PAYMENTS_API_KEY: "payments-files-test-key" });
    expect((await run.exited)[0]).toBe(2);
    expect(run.output().stderr).toContain(
      `payments-mock: ${option} ${fifo} is a FIFO (named pipe), not a regular file: give ${option} the path of a file`,
    );
  });

  it("is refused as the fixture file, run or checked", async (context) => {
    for (const args of [
      ["fixtures", fifo],
      ["fixtures", fifo, "--check"],
    ]) {
      const run = runCli(context, args, { PAYMENTS_API_KEY: "payments-files-test-key" });
      expect((await run.exited)[0]).toBe(2);
      expect(run.output().stderr).toContain(
        `payments-mock: the fixture file ${fifo} is a FIFO (named pipe), not a regular file: give payments-mock fixtures the path of a file`,
      );
    }
  });
});

describe.concurrent("a file option given a device or a directory", () => {
  it.for([
    {
      args: ["fixtures", "/dev/zero", "--check"],
      what: "the fixture file /dev/zero is a character device",
    },
    {
      args: ["--port", "0", "--spec", "/dev/zero"],
      what: "--spec /dev/zero is a character device",
    },
    { args: ["readiness", "--from", folder], what: `--from ${folder} is a directory` },
    {
      args: ["impact", "--against", folder, "--url", NOWHERE],
      what: `--against ${folder} is a directory`,
    },
  ])("is refused, naming it: $what", async ({ args, what }, context) => {
    const run = runCli(context, args, { PAYMENTS_API_KEY: "payments-files-test-key" });
    expect((await run.exited)[0]).toBe(2);
    expect(run.output().stderr).toContain(`payments-mock: ${what}, not a regular file: give `);
  });
});
