// `npm run spec:diff` (packages/surface-guard/scripts/spec-diff.ts) on the real spec: it runs the spec's wire guard and
// this package's guard together, and `--json` and `--check` keep their contracts. What the report
// holds is asked of `specDiff`, the command's library function, each pair of documents once; the
// command, `specDiffCommand` (what the script prints and its exit code), for each contract:
// --json's output, --check's exit codes and messages, the text's sections. Both run in this
// process, where the compiler's parsed files are shared: a process of its own would start the
// compiler cold (seconds of CPU) for each. The script itself runs once, for its usage: it prints
// what the command returns (and exits 0 on the working documents in check:repo's own run).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadSpec, specPath, testModeSpecPath } from "@org/payments-spec";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { checkSpecDiff, specDiff, specDiffCommand } from "../src/index.ts";

// biome-ignore lint/suspicious/noExplicitAny: the tests edit the parsed spec as loose JSON
type Json = Record<string, any>;

const real = loadSpec();

/** `make`'s promise, made on the first call: tests that ask the same question share its answer. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

describe("npm run spec:diff", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "payments-spec-diff-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A base spec with one more operation than the working spec: the working spec removed it. */
  function baseWithExtraOperation(): string {
    const base = structuredClone(real) as Json;
    base.paths["/gone"] = {
      get: {
        operationId: "listGoneCustomers",
        tags: ["Customers"],
        summary: "Gone",
        responses: { "200": { description: "ok" } },
      },
    };
    const file = path.join(dir, "base.yaml");
    writeFileSync(file, stringify(base));
    return file;
  }

  it("the script prints what the command returns, and exits with its code", async () => {
    const script = path.join(import.meta.dirname, "../scripts/spec-diff.ts");
    const result = spawnSync(process.execPath, [script, "--help"], { encoding: "utf8" });
    const help = await specDiffCommand(["--help"]);
    expect(help.stdout).toMatch(/^Usage: pnpm spec:diff \[--check\] \[--json\]/);
    expect(result.stdout).toBe(help.stdout);
    expect(result.stderr).toBe(help.stderr);
    expect(result.status).toBe(help.exitCode);
  });

  it("refuses an option it does not know, or one without its value, in a line", async () => {
    for (const args of [["--chek"], ["--base"]]) {
      const result = await specDiffCommand(args);
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/^spec:diff: .*--(chek|base).*; --help lists the options\n$/);
    }
  });

  /** The working documents against the released ones. */
  const working = once(() => specDiff());

  // What an edit of a document leaves by mistake: refused before any comparison, naming the file,
  // the line where the parser gives one, and the rule; never a stack trace or a verdict on it.
  it.each([
    [
      "indented with a tab",
      "tab.yaml",
      (text: string) => text.replace("\n  /customers:", "\n\t/customers:"),
      /tab\.yaml:\d+:1: not valid YAML: Tabs are not allowed as indentation .*\[spec-yaml-invalid\]/,
    ],
    [
      "a key twice",
      "twice.yaml",
      (text: string) => text.replace("info:\n", "info:\n  title: Again\n"),
      /twice\.yaml:4:3: not valid YAML: Map keys must be unique .*\[spec-yaml-invalid\]/,
    ],
    [
      "a quote unclosed",
      "quote.yaml",
      (text: string) => text.replace("info:\n", 'info:\n  summary: "unclosed\n'),
      /quote\.yaml:3:\d+: not valid YAML: Missing closing "quote .*\[spec-yaml-invalid\]/,
    ],
    ["empty", "empty.yaml", () => "", /empty\.yaml: the file is empty \[spec-not-openapi\]/],
    [
      "OpenAPI 3.0",
      "v30.yaml",
      (text: string) => text.replace(/^openapi: .*$/m, "openapi: 3.0.3"),
      /v30\.yaml: not an OpenAPI 3\.1 document \(openapi: "3\.0\.3"\) \[spec-not-openapi\]: it starts with `openapi: 3\.1\.0`/,
    ],
    [
      "a $ref to nothing",
      "ref.yaml",
      (text: string) =>
        text.replace(
          "#/components/schemas/CustomerStatus",
          "#/components/schemas/CustomerStatuses",
        ),
      /ref\.yaml: #\/components\/schemas\/.+: \$ref #\/components\/schemas\/CustomerStatuses names nothing in the document \[spec-ref-unresolved\]/,
    ],
  ])(
    "--head %s is refused, naming the file, the line and the rule",
    async (_, name, edit, message) => {
      const file = path.join(dir, name);
      writeFileSync(file, edit(readFileSync(specPath, "utf8")));
      const result = await specDiffCommand(["--head", file]);
      expect(result).toEqual({ stdout: "", stderr: expect.stringMatching(message), exitCode: 2 });
    },
  );

  it("--base that is no file (a git ref) or a directory is refused, saying what to give", async () => {
    const ref = await specDiffCommand(["--base", path.join(dir, "v0.1.0")]);
    expect(ref.exitCode).toBe(2);
    expect(ref.stderr).toMatch(/v0\.1\.0: no such file .*\[spec-file-missing\].*git show <ref>:/);
    const folder = await specDiffCommand(["--base", dir]);
    expect(folder.exitCode).toBe(2);
    expect(folder.stderr).toMatch(/: a directory, not a document \[spec-file-missing\]/);
  });

  it("--json prints every change with its rule, operation and location", async () => {
    const result = await specDiffCommand(["--json", "--base", baseWithExtraOperation()]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe("");
    const report = JSON.parse(result.stdout);
    expect(report.breaking).toEqual([
      {
        where: "listGoneCustomers (GET /gone)",
        rule: "operation-removed",
        operation: "listGoneCustomers (GET /gone)",
        location: "",
        message: expect.stringContaining("operation removed"),
      },
      {
        where: '@org/payments-types export paths["/gone"]',
        rule: "package-path-removed",
        operation: "@org/payments-types",
        location: 'export paths["/gone"]',
        message: expect.stringContaining("keep its parameter names"),
      },
      {
        where: "@org/payments-client export PaymentsResources.customers.listGone",
        rule: "package-method-removed",
        operation: "@org/payments-client",
        location: "export PaymentsResources.customers.listGone",
        message: expect.stringContaining("deprecate the old one first"),
      },
    ]);
    expect(report.additions).toEqual([]);
    // By default, the test mode's working document against its released one.
    expect(report.testMode).toEqual((await working()).report.testMode);
  }, 300_000);

  it("reports a change only the packages feel: a schema renamed, same wire shape", async () => {
    const head = structuredClone(real) as Json;
    const text = JSON.stringify(head).replaceAll(
      '"#/components/schemas/CustomerStatus"',
      '"#/components/schemas/CustomerState"',
    );
    const renamed = JSON.parse(text);
    renamed.components.schemas.CustomerState = renamed.components.schemas.CustomerStatus;
    delete renamed.components.schemas.CustomerStatus;
    const file = path.join(dir, "renamed.yaml");
    writeFileSync(file, stringify(renamed));
    const { breaking } = (await specDiff({ head: file })).report;
    expect(breaking.map((change) => `${change.rule} ${change.location}`)).toEqual([
      "package-export-removed export CustomerStatus",
      "package-export-removed export CUSTOMER_STATUSES",
    ]);
  });

  it("--check fails on a breaking change with no changeset added with it, naming the rule, the packages and the fix", async () => {
    // The test-mode document against itself: it changes nothing, so the run reads only the API
    // document's history (the test mode's is read by the tests below, and by CI's own --check).
    const result = await specDiffCommand([
      "--check",
      "--base",
      baseWithExtraOperation(),
      "--test-mode-base",
      testModeSpecPath,
    ]);
    expect(result.stdout).toContain("listGoneCustomers (GET /gone): operation removed");
    expect(result.stdout).toContain("[operation-removed]");
    // The test mode's section of its own, here with nothing in it.
    const testMode = result.stdout.slice(result.stdout.indexOf("\nTest mode: "));
    expect(testMode).toMatch(
      /^\nTest mode: openapi\/test-mode\.yaml \(.+\) → openapi\/test-mode\.yaml /,
    );
    expect(testMode).toContain("Breaking changes (0): none");
    expect(result.stderr).not.toContain("test-mode: ");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      "partner-payments: listGoneCustomers (GET /gone): operation removed [operation-removed, breaking]",
    );
    expect(result.stderr).toContain(
      "needs a major changeset on @org/payments-types, @org/payments-client, @org/payments-mock, @org/payments-mcp",
    );
    expect(result.stderr).toContain("npm run changeset");
    expect(result.stderr).toContain('"@org/payments-client": major');
    // The command reads each version of the documents since the release: a limit for a hang.
  }, 300_000);

  /**
   * A test-mode document without the reset route, beside a copy of the API's document (its enums
   * are $refs into it): against the released one, it removed an operation.
   */
  function testModeWithoutReset(): string {
    const folder = mkdtempSync(path.join(dir, "test-mode-"));
    copyFileSync(specPath, path.join(folder, "partner-payments.yaml"));
    const head = loadSpec(testModeSpecPath) as Json;
    delete head.paths["/_sandbox/reset"];
    head.tags = head.tags.filter((tag: Json) => tag.name !== "Reset");
    delete head.components.schemas.ResetDone;
    delete head.components.examples.ResetDone;
    const file = path.join(folder, "test-mode.yaml");
    writeFileSync(file, stringify(head));
    return file;
  }

  /** The working documents, less the test mode's reset route. */
  const withoutReset = once(() => specDiff({ testModeHead: testModeWithoutReset() }));

  it("lists the test-mode document's changes in a section of their own", async () => {
    const { report, text } = await withoutReset();
    // What the working document already changes (covered by its pending changesets), and the removal.
    const { report: unchanged } = await working();
    expect(report.breaking).toEqual(unchanged.breaking);
    expect(report.testMode.breaking).toHaveLength(unchanged.testMode.breaking.length + 1);
    expect(report.testMode.breaking).toEqual(
      expect.arrayContaining([
        ...unchanged.testMode.breaking,
        expect.objectContaining({
          rule: "operation-removed",
          operation: "resetSandbox (POST /_sandbox/reset)",
        }),
      ]),
    );
    const section = text.slice(text.indexOf("Test mode: openapi/released/test-mode.yaml"));
    expect(section).toContain("resetSandbox (POST /_sandbox/reset): operation removed");
    expect(text.indexOf("resetSandbox")).toBeGreaterThan(text.indexOf("Test mode:"));
  }, 300_000);

  it("--check fails on a breaking change of the test-mode document as on the API's", async () => {
    const { text, changes } = await withoutReset();
    expect(text).toContain("[operation-removed]");
    const verdict = await checkSpecDiff(changes);
    expect(verdict?.failed).toBe(true);
    expect(verdict?.message).toContain(
      "test-mode: resetSandbox (POST /_sandbox/reset): operation removed [operation-removed, breaking]\n    needs a major changeset on @org/payments-mock, @org/payments-mcp",
    );
    // Only the new break is refused: the working document's own changes have their changesets.
    expect(verdict?.message).not.toContain("advanceClock");
    // It reads each version of the document since the release: a limit for a hang, not for speed.
  }, 300_000);

  // The command's exit 0 on the working documents is CI's own check (`npm run check:repo` runs
  // `spec-diff.ts --check`); its exit 1 is the test above. Here, the verdict it prints.
  it("--check passes on the working spec against the released one", async () => {
    const verdict = await checkSpecDiff((await working()).changes);
    // No verdict at all when nothing needs a changeset (just after a release).
    expect(verdict?.failed ?? false).toBe(false);
  }, 300_000);
});
