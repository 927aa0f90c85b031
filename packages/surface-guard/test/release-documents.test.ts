// The documents' part of `npm run version-packages`, on a temporary copy of openapi/ and of the
// published packages' CHANGELOGs: the API team makes `CreateCustomerRequest.name` required and
// deprecates an operation with a sunset date, `changeset version` has written the packages' new
// heading, and releaseDocuments gives each document its own version, baseline, history copy and
// changelog entry, and each package's CHANGELOG the API changes that reach it.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse, parseDocument } from "yaml";
import { type ApiChangelog, changelogMarkdown, upgradeMarkdown } from "../src/changelog.ts";
import { pendingReleases } from "../src/pending.ts";
import { guardChanges, rebuildChangelog, releaseDocuments } from "../src/release-documents.ts";

const repository = path.resolve(import.meta.dirname, "../../..");
const PACKAGES = ["types", "client", "mock", "mcp"];

describe("releasing the documents (npm run version-packages)", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "payments-release-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  cpSync(path.join(repository, "openapi"), path.join(root, "openapi"), {
    recursive: true,
    filter: (source) => !source.includes("node_modules"),
  });
  for (const name of PACKAGES) {
    mkdirSync(path.join(root, "packages", name), { recursive: true });
    writeFileSync(
      path.join(root, "packages", name, "CHANGELOG.md"),
      `# @org/payments-${name}\n\n## 9.0.0\n\n### Major Changes\n\n- Node 20 is no longer supported.\n`,
    );
  }
  const apiFile = path.join(root, "openapi/partner-payments.yaml");
  const document = parseDocument(readFileSync(apiFile, "utf8"));
  document.setIn(
    ["components", "schemas", "CreateCustomerRequest", "required"],
    ["customer_type", "email", "name"],
  );
  document.setIn(["paths", "/customers", "get", "deprecated"], true);
  document.setIn(["paths", "/customers", "get", "x-sunset"], "2027-06-30");
  writeFileSync(apiFile, document.toString());
  const read = (file: string) => readFileSync(path.join(root, file), "utf8");

  it("gives each changed document its own next version, baseline and history copy", async () => {
    // Before: what would be released, on the wire alone (as the docs site shows it, upcoming).
    const upcoming = await pendingReleases(root, null);
    expect(upcoming.find((release) => release.document === "partner-payments")).toMatchObject({
      version: "1.0.0",
      date: null,
      changes: expect.arrayContaining([
        expect.objectContaining({ rule: "request-property-became-required", field: "name" }),
      ]),
    });
    const released = await releaseDocuments(root, "2026-12-01");
    expect(
      released.map(({ document, previous, version, level }) => ({
        document,
        previous,
        version,
        level,
      })),
    ).toEqual([
      { document: "partner-payments", previous: "0.1.0", version: "1.0.0", level: "major" },
      { document: "test-mode", previous: "0.1.0", version: "1.0.0", level: "major" },
    ]);
    for (const name of ["partner-payments", "test-mode"]) {
      expect(parse(read(`openapi/${name}.yaml`)).info.version).toBe("1.0.0");
      expect(read(`openapi/released/${name}.yaml`)).toBe(read(`openapi/${name}.yaml`));
      expect(existsSync(path.join(root, `openapi/released/history/${name}@1.0.0.yaml`))).toBe(true);
      expect(existsSync(path.join(root, `openapi/released/history/${name}@0.1.0.yaml`))).toBe(true);
    }
    // The bundled test-mode copy reads alone: no $ref into another file.
    expect(read("openapi/released/history/test-mode@1.0.0.yaml")).not.toContain(
      "partner-payments.yaml#",
    );
    expect(await pendingReleases(root, null, guardChanges)).toEqual([]);
  }, 180_000);

  it("records the release, dated, with each change told for partners", () => {
    const changelog = JSON.parse(read("openapi/released/changelog.json")) as ApiChangelog;
    const [api] = changelog.releases;
    expect(api).toMatchObject({
      document: "partner-payments",
      version: "1.0.0",
      date: "2026-12-01",
    });
    expect(changelog.releases.map((release) => `${release.document}@${release.version}`)).toEqual([
      "partner-payments@1.0.0",
      "test-mode@1.0.0",
      "test-mode@0.1.0",
      "partner-payments@0.1.0",
    ]);
    expect(api?.changes[0]).toMatchObject({
      kind: "changed",
      breaking: true,
      rule: "request-property-became-required",
      operation: { id: "createCustomer", method: "POST", path: "/customers" },
      field: "name",
      action: "Send `name` in every request body",
      clientMethods: ["payments.customers.create"],
      mcpTools: ["createCustomer"],
      packages: PACKAGES.map((name) => `@org/payments-${name}`),
    });
    expect(api?.changes[0]?.why).toContain("Integrations that call the HTTP API");
    expect(api?.changes).toContainEqual(
      expect.objectContaining({
        kind: "deprecated",
        breaking: false,
        operation: { id: "listCustomers", method: "GET", path: "/customers" },
        sunset: "2027-06-30",
        action: "Move off it before 2027-06-30: a later major release removes it",
        clientMethods: ["payments.customers.list"],
      }),
    );
    // Breaking first: every break comes before every other change.
    const breaking = api?.changes.map((change) => change.breaking) ?? [];
    expect(breaking.indexOf(false)).toBeGreaterThan(breaking.lastIndexOf(true));
    const markdown = changelogMarkdown(changelog.releases);
    expect(markdown).toContain("## Partner payments API 1.0.0 (2026-12-01)");
    expect(markdown.indexOf("### Breaking changes")).toBeLessThan(
      markdown.indexOf("### Deprecated"),
    );
    expect(upgradeMarkdown(api as never)).toContain(
      "- Client methods: `payments.customers.create`",
    );
  });

  it("puts the API changes that reach each package in its CHANGELOG, under the new version", () => {
    for (const name of PACKAGES) {
      const text = read(`packages/${name}/CHANGELOG.md`);
      expect(text).toMatch(/## 9\.0\.0\n\n### API changes\n/);
      expect(text.indexOf("### API changes")).toBeLessThan(text.indexOf("### Major Changes"));
      expect(text).toContain("#### Partner payments API 1.0.0 (2026-12-01)");
      expect(text).toContain("**createCustomer** `POST /customers`");
    }
    // The test mode reaches the mock and the MCP server only.
    expect(read("packages/mock/CHANGELOG.md")).toContain("#### Test mode");
    expect(read("packages/mcp/CHANGELOG.md")).toContain("#### Test mode");
    expect(read("packages/types/CHANGELOG.md")).not.toContain("#### Test mode");
    expect(read("packages/client/CHANGELOG.md")).not.toContain("#### Test mode");
  });

  it("rebuilds the released entries from the history copies", async () => {
    const recorded = JSON.parse(read("openapi/released/changelog.json")) as ApiChangelog;
    const rebuilt = await rebuildChangelog(root);
    const summary = (changelog: ApiChangelog) =>
      changelog.releases.map((release) => ({
        id: `${release.document}@${release.version}`,
        date: release.date,
        changes: release.changes.map((change) => `${change.rule} ${change.where}`).sort(),
      }));
    expect(summary(rebuilt)).toEqual(summary(recorded));
  }, 180_000);
});

describe("npm run spec:changelog on a working document that is none", () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "payments-pending-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  cpSync(path.join(repository, "openapi"), path.join(root, "openapi"), {
    recursive: true,
    filter: (source) => !source.includes("node_modules"),
  });

  it("refuses it naming the file, the line and the rule", async () => {
    const file = path.join(root, "openapi/partner-payments.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("\n  /customers:", "\n\t/customers:"));
    await expect(pendingReleases(root, null)).rejects.toThrow(
      /^openapi\/partner-payments\.yaml:\d+:1: not valid YAML: Tabs are not allowed as indentation .*\[spec-yaml-invalid\]/,
    );
  });
});

describe("npm run spec:changelog", () => {
  it("refuses an option it does not know in a line, exit 2", () => {
    const script = path.join(import.meta.dirname, "../scripts/spec-changelog.ts");
    const result = spawnSync(process.execPath, [script, "--relased"], { encoding: "utf8" });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "spec:changelog: Unknown option '--relased'; --help lists the options\n",
    );
  });
});
