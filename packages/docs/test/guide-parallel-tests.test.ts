// The "Tests in parallel" guide runs as printed: its two ```ts vitest files go into a vitest
// project of their own (inside this package, so that the packages resolve to the workspace's),
// and vitest runs them there, each test at once against one sandbox, each a partner of its own.
// Moved here with the guide from the mock's README.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { timeLimits } from "../../../vitest.shared.js";
import { blocksOf, guideMarkdown } from "./support/guide-blocks.ts";

/** One test of the run, as vitest's JSON report gives it. */
type Result = { title: string; status: string; failureMessages: string[] };

const vitestBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve("vitest/package.json")),
  "vitest.mjs",
);

it("runs the guide's parallel tests, each in a partner of its own, against one sandbox", async () => {
  const files = blocksOf(guideMarkdown("parallel-tests"), "guides/parallel-tests.md").filter(
    (block) => block.language === "ts" && block.flags.includes("vitest"),
  );
  expect(files).toHaveLength(2);
  const [setup, tests] = files.map((block) => block.code);
  expect(setup).toContain("startMock({ stateful: true })");
  expect(tests).toContain("describe.concurrent");
  const dir = mkdtempSync(path.join(import.meta.dirname, "../.guide-programs-"));
  try {
    writeFileSync(path.join(dir, "sandbox-setup.ts"), setup ?? "");
    writeFileSync(path.join(dir, "onboarding.test.ts"), tests ?? "");
    // The workspace's time limits, not vitest's defaults (5 s a test): on a loaded machine a limit
    // only stops a test that hangs.
    const config = { globalSetup: ["./sandbox-setup.ts"], include: ["*.test.ts"], ...timeLimits };
    writeFileSync(
      path.join(dir, "vitest.config.mjs"),
      `export default { test: ${JSON.stringify(config)} };\n`,
    );
    // The run's own vitest, not a worker of this one.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST")),
    );
    const reportFile = path.join(dir, "report.json");
    const run = await promisify(execFile)(
      process.execPath,
      [
        vitestBin,
        "run",
        "--config",
        "vitest.config.mjs",
        "--reporter=json",
        `--outputFile=${reportFile}`,
      ],
      { cwd: dir, env },
    ).catch((error: { stderr?: string }) => ({ stderr: error.stderr ?? String(error) }));
    // What failed, by test, when the run did: its report's messages, or what vitest said.
    expect(existsSync(reportFile), run.stderr).toBe(true);
    const report = JSON.parse(readFileSync(reportFile, "utf8"));
    const results = report.testResults.flatMap((file: { assertionResults: Result[] }) =>
      file.assertionResults.map((result) =>
        `${result.title}: ${result.status} ${result.failureMessages.join("\n")}`.trim(),
      ),
    );
    expect(results).toEqual([
      "activates Ada: passed",
      "activates Grace: passed",
      "activates Alan: passed",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
