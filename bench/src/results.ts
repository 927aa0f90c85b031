// The results as a table (printed, and written to RESULTS.md with the machine it ran on).
import { arch, availableParallelism, cpus, loadavg, platform, release, totalmem } from "node:os";

/** One figure beside its baseline, measured in the same run. */
export type Row = {
  figure: string;
  value: number;
  unit: "ms" | "µs" | "B" | "req/s" | "";
  /** The lowest and highest sample, when the value is a median of several. */
  spread?: [number, number];
  baselineLabel: string;
  baseline: number;
  baselineSpread?: [number, number];
  target?: { text: string; met: boolean };
};
export type SectionResult = { section: string; rows: Row[] } | { section: string; error: string };

function format(value: number, unit: Row["unit"]) {
  // Whole numbers (autocannon's latencies) are shown as such, not with made-up decimals.
  const fractional = (unit === "ms" || unit === "µs") && !Number.isInteger(value);
  const digits = fractional && value < 100 ? 2 : 0;
  const text = value.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return unit === "" ? text : `${text} ${unit}`;
}

/**
 * `×value/baseline`: three decimals near 1, where a target like ≤ 1.05 is decided, fewer for
 * large ratios; "—" when the baseline is 0 (a p99 under the 1 ms step), where no ratio exists.
 */
function ratioText(row: Row) {
  if (row.baseline === 0) return "—";
  const ratio = row.value / row.baseline;
  return `×${ratio.toFixed(ratio < 10 ? 3 : 1)}`;
}

/** A median with the range of its samples, such as `7,120 req/s (6,900–7,300)`. */
function withSpread(value: number, unit: Row["unit"], spread: [number, number] | undefined) {
  if (!spread) return format(value, unit);
  const bare = (sample: number) => format(sample, unit).replace(` ${unit}`, "");
  return `${format(value, unit)} (${bare(spread[0])}–${bare(spread[1])})`;
}

function targetCell(row: Row) {
  if (!row.target) return "";
  return `${row.target.text}: ${row.target.met ? "met" : "NOT met"}`;
}

export function resultsTable(results: SectionResult[]) {
  const lines = [
    "| Section | Figure | Value | Baseline | Baseline value | Ratio | Target |",
    "| --- | --- | ---: | --- | ---: | ---: | --- |",
  ];
  for (const result of results) {
    if ("error" in result) {
      lines.push(`| ${result.section} | not measured: see below | | | | | |`);
      continue;
    }
    for (const row of result.rows) {
      lines.push(
        `| ${result.section} | ${row.figure} | ${withSpread(row.value, row.unit, row.spread)} | ${row.baselineLabel} | ${withSpread(row.baseline, row.unit, row.baselineSpread)} | ${ratioText(row)} | ${targetCell(row)} |`,
      );
    }
  }
  return lines.join("\n");
}

function machine() {
  const cpuList = cpus();
  return {
    cpu: cpuList[0]?.model.trim() ?? "unknown",
    cores: availableParallelism(),
    memoryGiB: totalmem() / 1024 ** 3,
    node: process.version,
    os: `${platform()} ${release()} ${arch()}`,
    // Other work on the machine skews timings; the load says how busy it was.
    load: loadavg()[0] ?? 0,
  };
}

export function resultsMarkdown(results: SectionResult[], date: Date) {
  const host = machine();
  const targets = results.flatMap((result) =>
    "rows" in result ? result.rows.filter((row) => row.target) : [],
  );
  const failures = results.filter((result) => "error" in result);
  return [
    "# Benchmark results",
    "",
    `Written by \`pnpm bench\` on ${date.toISOString()}; see README.md for what each figure means.`,
    "Ratio = value / baseline, both measured in this run.",
    "",
    "## Machine",
    "",
    `- CPU: ${host.cpu}, ${host.cores} cores`,
    `- Memory: ${host.memoryGiB.toFixed(1)} GiB`,
    `- Node: ${host.node} on ${host.os}`,
    `- Load average (1 min) when the results were written: ${host.load.toFixed(2)}`,
    "",
    "## Figures",
    "",
    resultsTable(results),
    "",
    "## Targets",
    "",
    ...targets.map(
      (row) =>
        `- ${row.target?.text} (${row.figure}: ${format(row.value, row.unit)}, ratio ${ratioText(row)}): **${row.target?.met ? "met" : "not met"}**`,
    ),
    ...(failures.length === 0
      ? []
      : [
          "",
          "## Not measured",
          "",
          ...failures.map((failure) =>
            "error" in failure ? `- ${failure.section}: ${failure.error.split("\n")[0]}` : "",
          ),
        ]),
    "",
  ].join("\n");
}
