// The guard on the real spec and through its command: shared schemas and parameters are reported
// at every operation that uses them, recursion ends, and `--json` and `--check` keep their contracts.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { diffSpecs } from "../diff.ts";
import { listOperations, loadSpec, type OpenApiDocument } from "../index.js";

// biome-ignore lint/suspicious/noExplicitAny: the tests edit the parsed spec as loose JSON
type Json = Record<string, any>;

const real = loadSpec();
const changed = (edit: (spec: Json) => void) => {
  const head = structuredClone(real) as Json;
  edit(head);
  return head as OpenApiDocument;
};
const summary = (report: ReturnType<typeof diffSpecs>) => ({
  breaking: report.breaking.map((c) => `${c.rule} @ ${c.where}`),
  additions: report.additions.map((c) => `${c.rule} @ ${c.where}`),
});

describe("diffSpecs on the real spec", () => {
  it("finds nothing between the spec and itself", () => {
    expect(diffSpecs(real, loadSpec())).toEqual({ breaking: [], additions: [] });
  });

  it("follows $refs into a shared enum: narrowed, it breaks the request and not the responses", () => {
    const head = changed((spec) => {
      const topics = spec.components.schemas.WebhookTopic;
      topics.enum = topics.enum.filter((topic: string) => topic !== "Ping");
    });
    const { breaking, additions } = summary(diffSpecs(real, head));
    expect(breaking).toEqual([
      "request-enum-narrowed @ updateWebhook (PATCH /webhooks/{id}) request application/json body.topics[]",
    ]);
    expect(additions).toContain(
      "response-enum-narrowed @ listWebhooks (GET /webhooks) response 200 application/json body.items[].topics[]",
    );
  });

  it("a new value of a response enum breaks every operation that returns it", () => {
    const head = changed((spec) => spec.components.schemas.CustomerStatus.enum.push("Frozen"));
    expect(summary(diffSpecs(real, head)).breaking).toEqual([
      "response-enum-widened @ listCustomers (GET /customers) response 200 application/json body.items[].status",
      "response-enum-widened @ createCustomer (POST /customers) response 200 application/json body.status",
    ]);
  });

  it("a shared parameter tightened is reported at each operation that takes it", () => {
    const head = changed((spec) => {
      spec.components.parameters.SearchTerm.schema.maxLength = 100;
    });
    expect(summary(diffSpecs(real, head)).breaking).toEqual([
      "request-limit-narrowed @ listCustomers (GET /customers) query parameter search_term",
      "request-limit-narrowed @ listAutorampTransactions (GET /autoramp-transactions) query parameter search_term",
      "request-limit-narrowed @ listFiatAddressesByCustomer (GET /addresses/fiat/{customer_id}) query parameter search_term",
    ]);
  });

  it("the API key moved from a header to the query breaks every operation", () => {
    const head = changed((spec) => {
      spec.components.securitySchemes.ApiKeyAuth = { type: "apiKey", in: "query", name: "key" };
    });
    const { breaking } = diffSpecs(real, head);
    expect(breaking.map((change) => change.rule)).toEqual(
      listOperations(real).map(() => "security-narrowed"),
    );
    expect(breaking[0]?.message).toContain(
      "API key in header x-api-key no longer suffices: it now takes API key in query key",
    );
  });

  it("ends on recursive schemas and still sees a change deep inside them", () => {
    const tree = (leaf: Json) => ({
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {
        "/tree": {
          get: {
            operationId: "getTree",
            responses: {
              "200": {
                description: "ok",
                content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Node: {
            type: "object",
            properties: {
              leaf: leaf,
              children: { type: "array", items: { $ref: "#/components/schemas/Node" } },
            },
          },
        },
      },
    });
    const report = diffSpecs(
      tree({ type: "string" }) as OpenApiDocument,
      tree({ type: ["string", "null"] }) as OpenApiDocument,
    );
    expect(summary(report).breaking).toEqual([
      "response-type-widened @ getTree (GET /tree) response 200 application/json body.leaf",
    ]);
  });
});

describe("npm run spec:diff", () => {
  const root = path.resolve(import.meta.dirname, "../..");
  const dir = mkdtempSync(path.join(os.tmpdir(), "spec-diff-"));
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

  const run = (args: string[]) =>
    spawnSync(process.execPath, ["scripts/spec-diff.ts", ...args], {
      cwd: root,
      encoding: "utf8",
    });

  it("--json prints every change with its rule, operation and location", () => {
    const output = execFileSync(
      process.execPath,
      ["scripts/spec-diff.ts", "--json", "--base", baseWithExtraOperation()],
      { cwd: root, encoding: "utf8" },
    );
    const report = JSON.parse(output);
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
  });

  it("--json reports a change only the packages feel: a schema renamed, same wire shape", () => {
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
    const output = execFileSync(
      process.execPath,
      ["scripts/spec-diff.ts", "--json", "--head", file],
      {
        cwd: root,
        encoding: "utf8",
      },
    );
    const { breaking } = JSON.parse(output);
    expect(breaking.map((change: Json) => `${change.rule} ${change.location}`)).toEqual([
      "package-export-removed export CustomerStatus",
      "package-export-removed export CUSTOMER_STATUSES",
    ]);
  });

  /** Whether a changeset in .changeset/ asks for a major release (then --check lets breaks pass). */
  const majorPending = () =>
    readdirSync(path.join(root, ".changeset"))
      .filter((file) => file.endsWith(".md") && file !== "README.md")
      .some((file) =>
        /^"[^"]+":\s*major\s*$/m.test(readFileSync(path.join(root, ".changeset", file), "utf8")),
      );

  it("--check fails on a breaking change unless a major changeset is pending, naming the rule", () => {
    const result = run(["--check", "--base", baseWithExtraOperation()]);
    expect(result.stdout).toContain("listGoneCustomers (GET /gone): operation removed");
    expect(result.stdout).toContain("[operation-removed]");
    if (majorPending()) {
      expect(result.status).toBe(0);
      expect(result.stdout).toContain("covered by the major changeset");
    } else {
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("no pending major changeset");
    }
  });

  it("--check passes on the working spec against the released one", () => {
    expect(run(["--check"]).status).toBe(0);
  });
});
