// Pipeline: a cold `turbo run build` (forced, on an empty cache) against a warm full cache hit,
// and the types package's code generation against pnpm's own start-up.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { progress } from "./progress.ts";
import type { Row } from "./results.ts";
import { repoRoot, runCommand } from "./run-command.ts";
import { medianOf } from "./stats.ts";

const WARM_RUNS = 3;
const GENERATE_RUNS = 3;
const turbo = join(repoRoot, "node_modules", ".bin", "turbo");

/** A cache of its own, so that the cold run starts empty and the repo's cache is left alone. */
async function measureBuild() {
  const cacheDir = mkdtempSync(join(tmpdir(), "bench-turbo-cache-"));
  const build = ["run", "build", `--cache-dir=${cacheDir}`, "--output-logs=errors-only"];
  try {
    progress("pipeline: cold turbo run build --force (empty cache)");
    const cold = await runCommand(turbo, [...build, "--force"]);
    progress(`pipeline: cold build took ${(cold.ms / 1000).toFixed(1)} s; warm runs`);
    const warmMs = await medianOf(WARM_RUNS, async () => {
      const warm = await runCommand(turbo, build);
      if (!warm.output.includes("FULL TURBO")) {
        throw new Error(`a warm turbo run build was not a full cache hit:\n${warm.output}`);
      }
      return warm.ms;
    });
    return { coldMs: cold.ms, warmMs };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

async function measureGenerate() {
  const filter = ["--filter", "@org/payments-types"];
  progress("pipeline: code generation");
  const generateMs = await medianOf(GENERATE_RUNS, async () => {
    return (await runCommand("pnpm", [...filter, "generate"])).ms;
  });
  const floorMs = await medianOf(GENERATE_RUNS, async () => {
    return (await runCommand("pnpm", [...filter, "exec", "node", "-e", ""])).ms;
  });
  return { generateMs, floorMs };
}

export async function measurePipeline(): Promise<Row[]> {
  const { coldMs, warmMs } = await measureBuild();
  const { generateMs, floorMs } = await measureGenerate();
  return [
    {
      figure: "turbo run build, cold (--force, empty cache)",
      value: coldMs,
      unit: "ms",
      baselineLabel: `warm full cache hit (median of ${WARM_RUNS})`,
      baseline: warmMs,
    },
    {
      figure: `pnpm --filter @org/payments-types generate (median of ${GENERATE_RUNS})`,
      value: generateMs,
      unit: "ms",
      baselineLabel: "pnpm --filter … exec node -e '' (start-up floor)",
      baseline: floorMs,
    },
  ];
}
