// Compilers: type-checking every TypeScript project of the repository with TypeScript 7 (the
// native compiler that checks our code) against TypeScript 5.9 (the compiler it replaced), on the
// same projects and the same files, in interleaved rounds.
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { runCommand } from "./run-command.ts";
import { median } from "./stats.ts";
import { tscOf } from "./tsc.ts";

const RUNS = 3;
const TARGET = 0.3;
/** Every project `npm run lint` type-checks, as paths from the repository root. */
const PROJECTS = [
  "scripts",
  "openapi",
  "packages/types",
  "packages/client",
  "packages/mock",
  "packages/docs",
  "bench",
  "e2e",
];

/** Wall time of `tsc --noEmit -p <project>` over every project, one after another. */
async function checkEveryProject(tsc: string): Promise<number> {
  let ms = 0;
  for (const project of PROJECTS) {
    ms += (await runCommand(process.execPath, [tsc, "--noEmit", "-p", project])).ms;
  }
  return ms;
}

export async function measureCompilers(): Promise<Row[]> {
  const native = tscOf("typescript");
  const previous = tscOf("typescript-5.9");
  const runs: { native: number[]; previous: number[] } = { native: [], previous: [] };
  for (let i = 1; i <= RUNS; i++) {
    runs.previous.push(await checkEveryProject(previous));
    runs.native.push(await checkEveryProject(native));
    progress(`compilers: run ${i}/${RUNS}`);
  }
  const value = median(runs.native);
  const baseline = median(runs.previous);
  return [
    {
      figure: `tsc --noEmit over all ${PROJECTS.length} projects of the repository, TypeScript 7 (median of ${RUNS})`,
      value,
      unit: "ms",
      baselineLabel: "the same projects, TypeScript 5.9.3",
      baseline,
      target: { text: `≤ ×${TARGET}`, met: value / baseline <= TARGET },
    },
  ];
}
