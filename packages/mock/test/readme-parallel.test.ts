// The README's "Tests in parallel, one partner each" runs as printed: its two files go into a
// project of their own (inside this package, so that @org/payments-mock is the built package
// itself), and vitest runs them there, each test at once against one sandbox.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const vitestBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve("vitest/package.json")),
  "vitest.mjs",
);

/** The ```ts blocks of the README's section with the heading. */
function blocksOf(heading: string): string[] {
  const start = readme.indexOf(heading);
  const section = readme.slice(start, readme.indexOf("\n#", start + heading.length));
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map(([, code = ""]) => code);
}

it("runs the README's parallel tests, each in a partner of its own, against one sandbox", async () => {
  const [setup, tests] = blocksOf("### Tests in parallel, one partner each");
  expect(setup).toContain("startMock({ stateful: true })");
  expect(tests).toContain("describe.concurrent");
  const dir = mkdtempSync(path.join(import.meta.dirname, "../.readme-parallel-"));
  try {
    writeFileSync(path.join(dir, "sandbox-setup.ts"), setup ?? "");
    writeFileSync(path.join(dir, "onboarding.test.ts"), tests ?? "");
    writeFileSync(
      path.join(dir, "vitest.config.mjs"),
      'export default { test: { globalSetup: ["./sandbox-setup.ts"], include: ["*.test.ts"] } };\n',
    );
    // The run's own vitest, not a worker of this one.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST")),
    );
    const reportFile = path.join(dir, "report.json");
    await promisify(execFile)(
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
    );
    const report = JSON.parse(readFileSync(reportFile, "utf8"));
    const results = report.testResults.flatMap(
      (file: { assertionResults: { status: string }[] }) => file.assertionResults,
    );
    expect(results.map((result: { status: string }) => result.status)).toEqual([
      "passed",
      "passed",
      "passed",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
