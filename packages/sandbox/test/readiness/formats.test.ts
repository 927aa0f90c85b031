// A report in each format: the text checklist, Markdown tables whose cells hold a `|`, and JUnit
// XML with one test case per check (a failure, a skipped one, a passed one), its text escaped.
import { describe, expect, it } from "vitest";
import { formatReport, type ReadinessReport } from "../../src/readiness/index.js";

const report: ReadinessReport = {
  partner_id: "p",
  ready: false,
  profile: { name: "team", version: "2" },
  checks: [
    { id: "a", title: "Alpha <first>", status: "passed", detail: "ok", how: "by a" },
    { id: "b", title: "Beta | second", status: "failed", detail: 'missing "x" & <y>', how: "by b" },
    { id: "c", title: "Gamma", status: "not_run", detail: "nothing yet.", how: "by c" },
  ],
  coverage: {
    operations: {
      listCustomers: { calls: 2, statuses: { "200": 1, "422": 1 } },
      createCustomer: { calls: 0, statuses: {} },
    },
    topics: {},
    states: {
      customer: [],
      identification: [],
      autoramp: [],
      fiat_address: [],
      autoramp_transaction: [],
    },
    faults: [],
  },
};

describe("a readiness report's formats", () => {
  it("text: a headline, then each check with what is missing", () => {
    expect(formatReport(report, "text")).toBe(
      [
        "Not ready to go live (profile team 2): 1 passed, 1 failed, 1 not run",
        "",
        "✓ Alpha <first> [a]",
        "✗ Beta | second [b]",
        '    failed: missing "x" & <y>',
        "○ Gamma [c]",
        "    not run: nothing yet.",
        "",
        "Operations called: 1 of 2.",
        "",
      ].join("\n"),
    );
  });

  it("markdown: the checks and the operations as tables, a | in a cell escaped", () => {
    const text = formatReport(report, "markdown");
    expect(text).toContain('| ✗ | Beta \\| second | failed | missing "x" & <y> |');
    expect(text).toContain("| `listCustomers` | 2 | 200: 1, 422: 1 |");
    expect(text).toContain("| `createCustomer` | 0 | — |");
  });

  it("junit: one test case per check, failed as a failure, not run as skipped, escaped", () => {
    const xml = formatReport(report, "junit");
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml).toContain('tests="3" failures="1" skipped="1"');
    expect(xml).toContain('name="a: Alpha &lt;first&gt;"');
    expect(xml).toContain(
      '<failure type="failed" message="missing &quot;x&quot; &amp; &lt;y&gt;">',
    );
    expect(xml).toContain('<skipped message="not run: nothing yet."/>');
    expect(xml).not.toMatch(/<[^>]*<y>/);
  });

  it("json: the report as the route answers it", () => {
    expect(JSON.parse(formatReport(report, "json"))).toEqual(report);
  });
});
