// A readiness report as a terminal or CI log reads it (text), as a pull request comment
// (markdown), as CI systems show tests (JUnit XML: one test case per check), or as JSON.

import type { ReadinessReport } from "./controls.js";
import type { CheckResult } from "./evaluate.js";

export const FORMATS = ["text", "json", "markdown", "junit"] as const;
export type ReportFormat = (typeof FORMATS)[number];

export function formatReport(report: ReadinessReport, format: ReportFormat): string {
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

const MARKS: Record<CheckResult["status"], string> = {
  passed: "✓",
  failed: "✗",
  not_run: "○",
};

function tally(report: ReadinessReport): string {
  const count = (status: CheckResult["status"]) =>
    report.checks.filter((check) => check.status === status).length;
  return `${count("passed")} passed, ${count("failed")} failed, ${count("not_run")} not run`;
}

function headline(report: ReadinessReport): string {
  return `${report.ready ? "Ready to go live" : "Not ready to go live"} (profile ${report.profile.name} ${report.profile.version}): ${tally(report)}`;
}

function text(report: ReadinessReport): string {
  const lines = [headline(report), ""];
  for (const check of report.checks) {
    lines.push(`${MARKS[check.status]} ${check.title} [${check.id}]`);
    if (check.status !== "passed")
      lines.push(`    ${check.status === "failed" ? "failed" : "not run"}: ${check.detail}`);
  }
  const called = Object.values(report.coverage.operations).filter(
    (operation) => operation.calls > 0,
  ).length;
  const total = Object.keys(report.coverage.operations).length;
  lines.push("", `Operations called: ${called} of ${total}.`);
  return `${lines.join("\n")}\n`;
}

function markdownCell(value: string): string {
  return value.replaceAll("|", "\\|").replaceAll("\n", " ");
}

function markdown(report: ReadinessReport): string {
  const lines = [
    `## ${headline(report)}`,
    "",
    "| | Check | Status | Detail |",
    "| --- | --- | --- | --- |",
    ...report.checks.map(
      (check) =>
        `| ${MARKS[check.status]} | ${markdownCell(check.title)} | ${check.status.replace("_", " ")} | ${markdownCell(check.detail)} |`,
    ),
    "",
    "### Operations",
    "",
    "| Operation | Calls | Statuses |",
    "| --- | ---: | --- |",
    ...Object.entries(report.coverage.operations).map(
      ([id, operation]) =>
        `| \`${id}\` | ${operation.calls} | ${
          Object.entries(operation.statuses)
            .map(([status, n]) => `${status}: ${n}`)
            .join(", ") || "—"
        } |`,
    ),
  ];
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

function junit(report: ReadinessReport): string {
  const count = (status: CheckResult["status"]) =>
    report.checks.filter((check) => check.status === status).length;
  const totals = `tests="${report.checks.length}" failures="${count("failed")}" skipped="${count("not_run")}"`;
  const cases = report.checks.map((check) => {
    const how = `      <system-out>${xml(`decided by: ${check.how}. ${check.detail}`)}</system-out>`;
    // A check with no evidence is skipped, as a test that did not run; the exit code still says not ready.
    const outcome =
      check.status === "failed"
        ? [
            `      <failure type="failed" message="${xml(check.detail)}">${xml(`failed: ${check.detail}`)}</failure>`,
          ]
        : check.status === "not_run"
          ? [`      <skipped message="${xml(`not run: ${check.detail}`)}"/>`]
          : [];
    return [
      `    <testcase classname="readiness.${xml(report.profile.name)}" name="${xml(check.id)}: ${xml(check.title)}">`,
      ...outcome,
      how,
      "    </testcase>",
    ].join("\n");
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="readiness" ${totals}>`,
    `  <testsuite name="${xml(`readiness ${report.profile.name} ${report.profile.version}`)}" ${totals}>`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
