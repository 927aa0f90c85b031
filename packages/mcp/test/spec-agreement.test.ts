// The tools and the two documents agree (src/generated/ is what the generator makes of them, and
// each tool says what its operation says), and a tool that drifts from its operation is caught.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildTools, generatedDir, loadSources, render, type Source } from "../scripts/generate.ts";
import { tools } from "../src/generated/tools.ts";
import { disagreements } from "./support/agreement.js";

const sources = loadSources();

/** The documents, with `change` made to a copy of the one of `group`. */
function changed(group: Source["group"], change: (doc: Source["doc"]) => void): Source[] {
  return sources.map((source) => {
    if (source.group !== group) return source;
    const doc = structuredClone(source.doc);
    change(doc);
    return { group, doc };
  });
}

describe("src/generated", () => {
  it("is what the generator makes of the documents (run `pnpm generate` if not)", () => {
    for (const [name, text] of Object.entries(render(sources))) {
      expect(readFileSync(join(generatedDir, name), "utf8"), name).toBe(text);
    }
  });
});

describe("the tools and the documents", () => {
  it("agree: every operation is a tool with its parameters, body and 2xx schema", () => {
    expect(disagreements(tools, sources)).toEqual([]);
  });

  it("disagree when an operation is missing, or a tool has none", () => {
    const fewer = changed("api", (doc) => {
      delete doc.paths["/fee-profiles"];
    });
    expect(disagreements(tools, fewer)).toEqual([
      "listFeeProfiles: a tool with no operation in the documents",
    ]);
    expect(disagreements(buildTools(fewer), sources)).toEqual([
      "listFeeProfiles: an operation with no tool",
    ]);
  });

  it("disagree when a parameter, a body field or the 2xx schema changes", () => {
    const drift = changed("api", (doc) => {
      // biome-ignore lint/suspicious/noExplicitAny: a document edited by hand in a test
      const { schemas, parameters } = doc.components as any;
      parameters.SearchTerm.schema.maxLength = 100;
      schemas.CreateCustomerRequest.properties.name.maxLength = 64;
      schemas.Customer.properties.status = { type: "string" };
    });
    const found = disagreements(tools, drift);
    expect(found).toContain("listCustomers: argument search_term differs from the spec");
    expect(found).toContain("createCustomer: body field name differs from the spec");
    expect(found).toContain("createCustomer: output differs from the spec");
  });

  it("disagree when a test-mode operation's body changes", () => {
    const drift = changed("test-mode", (doc) => {
      // biome-ignore lint/suspicious/noExplicitAny: a document edited by hand in a test
      const schemas = doc.components.schemas as Record<string, any>;
      schemas.Deposit.required = ["amount", "currency"];
    });
    expect(disagreements(tools, drift)).toEqual(["simulateDeposit: body field currency required"]);
  });
});
