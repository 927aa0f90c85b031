// The "Mock the API in your front end and tests" guide runs as printed: its ```ts vitest file
// goes into a vitest project of its own (inside this package, so that the packages resolve to the
// workspace's), and vitest runs it there, MSW's setupServer intercepting the client's fetch.
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

it("runs the guide's test file against sandboxHandlers with MSW's setupServer", async () => {
  const files = blocksOf(guideMarkdown("mock-front-end"), "guides/mock-front-end.md").filter(
    (block) => block.language === "ts" && block.flags.includes("vitest"),
  );
  expect(files).toHaveLength(1);
  const [tests] = files.map((block) => block.code);
  expect(tests).toContain("setupServer(...handlers)");
  const dir = mkdtempSync(path.join(import.meta.dirname, "../.guide-programs-"));
  try {
    writeFileSync(path.join(dir, "payments.test.ts"), tests ?? "");
    const config = { include: ["*.test.ts"], ...timeLimits };
    writeFileSync(
      path.join(dir, "vitest.config.mjs"),
      `export default { test: ${JSON.stringify(config)} };\n`,
    );
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
    expect(existsSync(reportFile), run.stderr).toBe(true);
    const report = JSON.parse(readFileSync(reportFile, "utf8"));
    const results = report.testResults.flatMap((file: { assertionResults: Result[] }) =>
      file.assertionResults.map((result) =>
        `${result.title}: ${result.status} ${result.failureMessages.join("\n")}`.trim(),
      ),
    );
    expect(results).toEqual([
      "activates a customer and tells the webhook: passed",
      "shows the app's error path with a fault armed for one request: passed",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
