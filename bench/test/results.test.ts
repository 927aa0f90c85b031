// How RESULTS.md states ratios: a figure beside a zero baseline has no ratio to print.
import { describe, expect, it } from "vitest";
import { type Row, resultsMarkdown } from "../src/results.ts";

const p99: Row = {
  figure: "p99 latency",
  value: 1,
  unit: "ms",
  baselineLabel: "plain server",
  baseline: 0,
  target: { text: "≤ 10 ms", met: true },
};
const throughput: Row = { ...p99, figure: "throughput", unit: "req/s", value: 300, baseline: 1000 };

describe("resultsMarkdown", () => {
  const markdown = resultsMarkdown([{ section: "Mock", rows: [p99, throughput] }], new Date(0));

  it("prints a dash, not ×Infinity, for a zero baseline, in the table and in the targets", () => {
    expect(markdown).not.toContain("Infinity");
    expect(markdown).toContain("| 0 ms | — |");
    expect(markdown).toContain("(p99 latency: 1 ms, ratio —): **met**");
  });

  it("prints value / baseline with three decimals near 1", () => {
    expect(markdown).toContain("| ×0.300 |");
    expect(markdown).toContain("ratio ×0.300)");
  });
});
