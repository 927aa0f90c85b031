// Runs a guide's vitest files as printed: they go into a vitest project of their own (inside this
// package, so that the packages resolve to the workspace's), and the run's own vitest runs them.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { timeLimits } from "../../../../vitest.shared.js";
import { blocksOf, guideMarkdown } from "./guide-blocks.ts";

/** One test of the run, as vitest's JSON report gives it. */
type Result = { title: string; status: string; failureMessages: string[] };

const vitestBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve("vitest/package.json")),
  "vitest.mjs",
);

/** The ```ts vitest blocks of a guide, in order. */
export function guideVitestFiles(slug: string): string[] {
  return blocksOf(guideMarkdown(slug), `guides/${slug}.md`)
    .filter((block) => block.language === "ts" && block.flags.includes("vitest"))
    .map((block) => block.code);
}

/**
 * Runs `files` (name → code) as one vitest project with `config` added to its test options, and
 * resolves with a line per test: `<title>: <status> <failure messages>`.
 */
export async function runVitestProject(
  files: Record<string, string>,
  config: Record<string, unknown> = {},
): Promise<string[]> {
  const dir = mkdtempSync(path.join(import.meta.dirname, "../../.guide-programs-"));
  try {
    for (const [name, code] of Object.entries(files)) writeFileSync(path.join(dir, name), code);
    // The workspace's time limits, not vitest's defaults (5 s a test): on a loaded machine a limit
    // only stops a test that hangs.
    const test = { include: ["*.test.ts"], ...timeLimits, ...config };
    writeFileSync(
      path.join(dir, "vitest.config.mjs"),
      `export default { test: ${JSON.stringify(test)} };\n`,
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
    if (!existsSync(reportFile)) throw new Error(`vitest wrote no report: ${run.stderr}`);
    const report = JSON.parse(readFileSync(reportFile, "utf8"));
    return report.testResults.flatMap((file: { assertionResults: Result[] }) =>
      file.assertionResults.map((result) =>
        `${result.title}: ${result.status} ${result.failureMessages.join("\n")}`.trim(),
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
