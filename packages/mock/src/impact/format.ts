// payments-mock impact's report in the readiness report's formats: text for a terminal or a CI
// log, Markdown for a pull request comment, JUnit XML (one test case per change, a breaking one a
// failure) for CI systems, and JSON.
import type { ImpactChange } from "./changes.js";

export interface ImpactReport {
  /** The document compared with the one the sandbox serves, as given. */
  against: string;
  /** The changes that touch what the partner used, breaking first. */
  changes: ImpactChange[];
  /** How many of them break it. */
  breaking: number;
}

export function formatImpact(report: ImpactReport, format: string): string {
  switch (format) {
    case "json":
      return `${JSON.stringify(report, null, 2)}\n`;
    case "markdown":
      return markdown(report);
    case "junit":
      return junit(report);
    default:
      return text(report);
  }
}

function headline({ against, changes, breaking }: ImpactReport): string {
  if (changes.length === 0) return `No change in ${against} touches what this partner used.`;
  return `${changes.length} change(s) in ${against} touch what this partner used: ${breaking} breaking.`;
}

const mark = (change: ImpactChange) =>
  change.breaking ? "✗ breaking" : change.kind === "deprecated" ? "! deprecated" : "+ safe";

function text(report: ImpactReport): string {
  const lines = [headline(report)];
  for (const change of report.changes) {
    lines.push("", `${mark(change)}: ${change.where}: ${change.summary}`);
    lines.push(`    it used: ${change.used}`);
    if (change.action !== undefined) lines.push(`    what to do: ${change.action}`);
  }
  return `${lines.join("\n")}\n`;
}

const cell = (value: string) => value.replaceAll("|", "\\|").replaceAll("\n", " ");

function markdown(report: ImpactReport): string {
  const lines = [`## ${headline(report)}`];
  if (report.changes.length > 0) {
    lines.push(
      "",
      "| | Where | Change | It used | What to do |",
      "| --- | --- | --- | --- | --- |",
    );
    for (const change of report.changes) {
      lines.push(
        `| ${mark(change)} | ${cell(change.where)} | ${cell(change.summary)} | ${cell(change.used)} | ${cell(change.action ?? "—")} |`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

function xml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

function junit(report: ImpactReport): string {
  const totals = `tests="${report.changes.length}" failures="${report.breaking}"`;
  const cases = report.changes.map((change) => {
    const said = `it used: ${change.used}${change.action === undefined ? "" : `; what to do: ${change.action}`}`;
    return [
      `    <testcase classname="impact.${xml(change.operation ?? "servers")}" name="${xml(`${change.where}: ${change.summary}`)}">`,
      ...(change.breaking
        ? [`      <failure type="breaking" message="${xml(change.summary)}">${xml(said)}</failure>`]
        : []),
      `      <system-out>${xml(said)}</system-out>`,
      "    </testcase>",
    ].join("\n");
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="impact" ${totals}>`,
    `  <testsuite name="${xml(`impact of ${report.against}`)}" ${totals}>`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
