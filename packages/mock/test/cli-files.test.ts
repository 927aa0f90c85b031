// A file an option names must be a regular file: a FIFO (named pipe) made every command that read
// or appended to it wait for ever for a writer or a reader, a device such as /dev/zero never ends,
// a directory cannot be read. Each is refused at once, naming the option and the rule, with exit
// code 2. A file read whole at once is refused past 64 MiB (a fixture file past 16 MiB), naming its
// size and the limit (the
// tests' large files are sparse: they take no room on disk). The commands run as the built CLI: a command that still opened a FIFO would block its
// own process (killed when the test ends), not the test's.
import { execFileSync } from "node:child_process";
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { specPath } from "@org/payments-spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileProblem, MAX_FILE_BYTES } from "../src/cli-files.js";
import { MAX_FIXTURE_BYTES } from "../src/fixtures/fixture-limit.js";
import { fixturesMain } from "../src/fixtures-cli.js";
import { impactMain } from "../src/impact-cli.js";
import { checkFixture, runFixture } from "../src/index.js";
import { readinessMain } from "../src/readiness-cli.js";
import { runCli } from "./support/run-cli.js";
import { runMain } from "./support/run-main.js";

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
      args: ["--port", "0", "--stateful", "--state", folder],
      what: `--state ${folder} is a directory`,
    },
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

describe("a file a command reads, not there", () => {
  const missing = path.join(folder, "missing.yaml");
  // The server exited 1 with the reader's words, which named the file but not the option
  // (`The spec … cannot be read: ENOENT …`, `readiness profile …:0:0: cannot be read`).
  it("is refused by the server, naming the option (exit code 2)", async (context) => {
    const run = runCli(context, ["--port", "0", "--spec", missing], {});
    expect((await run.exited)[0]).toBe(2);
    expect(run.output().stderr).toContain(
      `payments-mock: --spec ${missing} does not exist: give --spec the path of an existing file`,
    );
  });

  it.for([
    { main: readinessMain, argv: ["--from", missing], option: "--from" },
    {
      main: readinessMain,
      argv: ["--state", path.join(folder, "none.db"), "--readiness-profile", missing],
      option: "--readiness-profile",
    },
    { main: impactMain, argv: ["--against", missing, "--url", NOWHERE], option: "--against" },
  ])("is refused by $option, naming it", async ({ main, argv, option }) => {
    const run = await runMain(main, argv, { PAYMENTS_API_KEY: "payments-files-test-key" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `payments-mock: ${option} ${missing} does not exist: give ${option} the path of an existing file`,
    );
  });

  it("is refused as the fixture file, and for --seed and --readiness-profile", async () => {
    const run = await runMain(fixturesMain, [missing, "--check"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `payments-mock: the fixture file ${missing} does not exist: give payments-mock fixtures the path of an existing file`,
    );
    for (const option of ["--seed", "--readiness-profile"]) {
      expect(fileProblem({ file: missing, option, needed: true })).toBe(
        `${option} ${missing} does not exist: give ${option} the path of an existing file`,
      );
    }
  });
});

describe("a file a command makes, in a folder that is not there", () => {
  const missing = path.join(folder, "no-such-folder");
  // Each was opened only once the command had started: the proxy exited 1 with a bare ENOENT that
  // named no option, listen ran until its first event, the server exited 1.
  it.for([
    {
      args: ["proxy", NOWHERE, "--port", "0", "--report", path.join(missing, "r.jsonl")],
      option: "--report",
    },
    {
      args: ["proxy", NOWHERE, "--port", "0", "--traffic", path.join(missing, "t.jsonl")],
      option: "--traffic",
    },
    {
      args: ["listen", "--url", NOWHERE, "--cursor-file", path.join(missing, "c")],
      option: "--cursor-file",
    },
    {
      args: ["--port", "0", "--stateful", "--state", path.join(missing, "s.db")],
      option: "--state",
    },
  ])("is refused at once, naming it: $args.0 $option", async ({ args, option }, context) => {
    const run = runCli(context, args, { PAYMENTS_API_KEY: "payments-files-test-key" });
    expect((await run.exited)[0]).toBe(2);
    expect(run.output().stderr).toContain(
      `payments-mock: ${option} ${args.at(-1)} is in a folder that does not exist (${missing}): make the folder, or give ${option} a path in one that does`,
    );
  });

  it("is refused when empty, naming it", async () => {
    // An open of "" failed with a bare ENOENT (the proxy's --report), or a listen ran on.
    for (const option of ["--report", "--traffic", "--cursor-file", "--state"]) {
      expect(fileProblem({ file: "", option, whole: false, made: true })).toBe(
        `${option} is empty: give ${option} the path of a file`,
      );
    }
    const run = await runMain(readinessMain, ["--from", ""], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("payments-mock: --from is empty: give --from the path of a file");
  });

  it("is taken in a folder that is there, and refused in a path through a file", () => {
    const made = path.join(folder, "made.jsonl");
    expect(
      fileProblem({ file: made, option: "--report", whole: false, made: true }),
    ).toBeUndefined();
    // Relative to the working folder, which is there.
    expect(fileProblem({ file: "made.jsonl", option: "--report", made: true })).toBeUndefined();
    expect(fileProblem({ file: path.join(fifo, "r.jsonl"), option: "--report", made: true })).toBe(
      `--report ${path.join(fifo, "r.jsonl")} is in ${fifo}, which is not a folder: give --report a path in a folder`,
    );
    // A path that is not there and is read, not made, is the reader's to say.
    expect(fileProblem({ file: path.join(missing, "x"), option: "--spec" })).toBeUndefined();
  });
});

describe("a file read whole, past the limit", () => {
  const sparse = path.join(folder, "huge.yaml");
  /** A file of `bytes` that takes no room on disk: a hole, read as zeros. */
  const makeSparse = (file: string, bytes: number) => {
    const fd = openSync(file, "w");
    try {
      ftruncateSync(fd, bytes);
    } finally {
      closeSync(fd);
    }
  };
  beforeAll(() => makeSparse(sparse, 2 ** 30));
  afterAll(() => rmSync(sparse, { force: true }));

  it.concurrent.for([
    { args: ["--port", "0", "--spec", sparse], option: "--spec" },
    { args: ["--port", "0", "--stateful", "--seed", sparse], option: "--seed" },
    {
      args: ["readiness", "--from", specPath, "--readiness-profile", sparse],
      option: "--readiness-profile",
    },
    { args: ["impact", "--against", sparse, "--url", NOWHERE], option: "--against" },
    { args: ["listen", "--url", NOWHERE, "--cursor-file", sparse], option: "--cursor-file" },
  ])(
    "is refused before it is read, naming its size and the limit: $option",
    async ({ args, option }, context) => {
      const run = runCli(context, args, { PAYMENTS_API_KEY: "payments-files-test-key" });
      expect((await run.exited)[0]).toBe(2);
      expect(run.output().stderr).toContain(
        `payments-mock: ${option} ${sparse} is 1 GiB (1073741824 bytes), past the limit of 64 MiB (67108864 bytes) for a file read whole: give ${option} a smaller file`,
      );
    },
  );

  // A fixture file has a lower limit, 16 MiB: parsing one takes some 65 bytes of memory a byte
  // (a 50 MB file took 1.8 GB).
  it.concurrent.for([
    ["fixtures", sparse, "--check"],
    ["fixtures", sparse],
  ])("is refused as the fixture file past 16 MiB: %s %s %s", async (args, context) => {
    const run = runCli(context, args, { PAYMENTS_API_KEY: "payments-files-test-key" });
    expect((await run.exited)[0]).toBe(2);
    expect(run.output().stderr).toContain(
      `payments-mock: the fixture file ${sparse} is 1 GiB (1073741824 bytes), past the limit of 16 MiB (16777216 bytes) for a fixture file: give payments-mock fixtures a smaller file`,
    );
  });

  it("takes a fixture file up to 16 MiB, and refuses one a byte past it, run or checked", async () => {
    const file = path.join(folder, "fixture-limit.yaml");
    const named = {
      file,
      option: "the fixture file",
      limit: { bytes: MAX_FIXTURE_BYTES, for: "a fixture file" },
    };
    try {
      makeSparse(file, MAX_FIXTURE_BYTES);
      expect(fileProblem(named)).toBeUndefined();
      makeSparse(file, MAX_FIXTURE_BYTES + 1);
      expect(fileProblem(named)).toBe(
        `the fixture file ${file} is 16 MiB (16777217 bytes), past the limit of 16 MiB (16777216 bytes) for a fixture file: give the fixture file a smaller file`,
      );
      // So do checkFixture() and runFixture(), before reading it (read, its zeros are NULs).
      const refusal = `${file}: is 16777217 bytes, past the limit of 16777216 bytes (16 MiB) for a fixture file: split it into smaller fixtures`;
      await expect(checkFixture(file, { spec: specPath })).rejects.toThrow(refusal);
      await expect(runFixture(file, { spec: specPath, apiKey: "k", url: NOWHERE })).rejects.toThrow(
        refusal,
      );
    } finally {
      rmSync(file, { force: true });
    }
  });

  it("is taken up to the limit, and refused a byte past it", () => {
    const file = path.join(folder, "limit.json");
    try {
      makeSparse(file, MAX_FILE_BYTES);
      expect(fileProblem({ file, option: "--seed" })).toBeUndefined();
      makeSparse(file, MAX_FILE_BYTES + 1);
      expect(fileProblem({ file, option: "--seed" })).toBe(
        `--seed ${file} is 64 MiB (67108865 bytes), past the limit of 64 MiB (67108864 bytes) for a file read whole: give --seed a smaller file`,
      );
      // A file read a line at a time, or appended to, has no such limit.
      expect(fileProblem({ file, option: "--from", whole: false })).toBeUndefined();
    } finally {
      rmSync(file, { force: true });
    }
  });
});
