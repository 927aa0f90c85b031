// The guard over what @org/payments-types and @org/payments-client export: single spec changes,
// each labelled with whether it breaks anything and with the package rules it must raise. The
// wire-only rules are in the spec package's test/diff-rules.test.ts; here each change goes through
// both guards, as `npm run spec:diff` runs them.
import type { OpenApiDocument } from "@org/payments-spec";
import { diffSpecs, RULES } from "@org/payments-spec/diff";
import { describe, expect, it } from "vitest";
import { diffPackages } from "../src/index.ts";

// biome-ignore lint/suspicious/noExplicitAny: the tests edit specs as loose JSON
type Json = Record<string, any>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ content: { "application/json": { schema } } });

/** A small spec the generators accept: one tag, a list, a create and a get, five schemas. */
function spec(): Json {
  return {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    tags: [{ name: "Things", description: "Things." }],
    paths: {
      "/things": {
        get: {
          operationId: "listThings",
          tags: ["Things"],
          parameters: [{ name: "kind", in: "query", schema: ref("Kind") }],
          responses: {
            "200": { description: "ok", ...json({ type: "array", items: ref("Thing") }) },
          },
        },
        post: {
          operationId: "createThing",
          tags: ["Things"],
          requestBody: { required: true, ...json(ref("NewThing")) },
          responses: { "200": { description: "ok", ...json(ref("Thing")) } },
        },
      },
      "/things/{id}": {
        get: {
          operationId: "getThing",
          tags: ["Things"],
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": { description: "ok", ...json(ref("Thing")) } },
        },
      },
    },
    components: {
      schemas: {
        Kind: { type: "string", enum: ["Small", "Large"] },
        Colour: { type: "string", enum: ["Red", "Blue"] },
        Thing: {
          type: "object",
          required: ["id"],
          properties: { id: { type: "string" }, note: { type: "string" }, colour: ref("Colour") },
        },
        NewThing: {
          type: "object",
          required: ["name"],
          properties: { name: { type: "string" }, colour: ref("Colour") },
        },
        Unused: { type: "object", properties: { a: { type: "string" } } },
      },
    },
  };
}

const edited = (edit: (doc: Json) => void) => {
  const doc = spec();
  edit(doc);
  return doc as OpenApiDocument;
};

/** Each change, whether it breaks (the label), and the package rules it must raise, no more. */
const cases: Array<{
  change: string;
  breaking: boolean;
  edit: (doc: Json) => void;
  rules: string[];
}> = [
  {
    change: "a schema renamed, same wire shape",
    breaking: true,
    edit: (doc) => {
      doc.components.schemas.Item = doc.components.schemas.Unused;
      delete doc.components.schemas.Unused;
    },
    rules: ["package-export-removed", "package-export-added"],
  },
  {
    change: "a path variable renamed",
    breaking: true,
    edit: (doc) => {
      doc.paths["/things/{thing_id}"] = doc.paths["/things/{id}"];
      delete doc.paths["/things/{id}"];
      doc.paths["/things/{thing_id}"].get.parameters[0].name = "thing_id";
    },
    rules: ["package-path-removed", "package-path-added", "package-type-changed"],
  },
  {
    change: "an operation moved to another tag and operationId",
    breaking: true,
    edit: (doc) => {
      doc.tags.push({ name: "Widgets" });
      doc.paths["/things/{id}"].get.tags = ["Widgets"];
      doc.paths["/things/{id}"].get.operationId = "getWidget";
    },
    rules: [
      "package-resource-added",
      "package-method-removed",
      "package-export-removed",
      "package-export-removed",
      "package-export-added",
      "package-export-added",
    ],
  },
  {
    change: "the only operation of a tag moved to another",
    breaking: true,
    edit: (doc) => {
      doc.tags = [{ name: "Widgets" }];
      for (const operation of [doc.paths["/things"].get, doc.paths["/things"].post]) {
        operation.tags = ["Widgets"];
        operation.operationId = operation.operationId.replace("Thing", "Widget");
      }
      doc.paths["/things/{id}"].get.tags = ["Widgets"];
      doc.paths["/things/{id}"].get.operationId = "getWidget";
    },
    rules: [
      "package-resource-removed",
      "package-resource-added",
      ...Array(6).fill("package-export-removed"),
      ...Array(6).fill("package-export-added"),
    ],
  },
  {
    change: "an operation added",
    breaking: false,
    edit: (doc) => {
      doc.paths["/things/{id}"].patch = {
        operationId: "updateThing",
        tags: ["Things"],
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        requestBody: { required: true, ...json(ref("NewThing")) },
        responses: { "200": { description: "ok", ...json(ref("Thing")) } },
      };
    },
    rules: ["package-method-added", ...Array(3).fill("package-export-added")],
  },
  {
    change: "a value added to a request-only enum",
    breaking: true,
    edit: (doc) => doc.components.schemas.Kind.enum.push("Medium"),
    rules: [
      "package-enum-array-changed",
      "package-request-type-widened",
      "package-request-type-widened",
    ],
  },
  {
    change: "a query parameter became required",
    breaking: true,
    edit: (doc) => {
      doc.paths["/things"].get.parameters[0].required = true;
    },
    rules: ["package-method-arguments-narrowed", "package-request-type-narrowed"],
  },
  {
    change: "a response property may be null",
    breaking: true,
    edit: (doc) => {
      doc.components.schemas.Thing.properties.note = { type: ["string", "null"] };
    },
    rules: [
      "package-response-type-widened",
      "package-response-type-widened",
      "package-response-type-widened",
      "package-response-type-widened",
      "package-method-result-widened",
      "package-method-result-widened",
      "package-method-result-widened",
    ],
  },
  {
    change: "a response property became required",
    breaking: false,
    edit: (doc) => doc.components.schemas.Thing.required.push("note"),
    rules: Array(4).fill("package-response-type-narrowed"),
  },
  {
    change: "a required request property added",
    breaking: true,
    edit: (doc) => {
      doc.components.schemas.NewThing.properties.size = { type: "integer" };
      doc.components.schemas.NewThing.required.push("size");
    },
    rules: [
      "package-request-type-narrowed",
      "package-request-type-narrowed",
      "package-method-arguments-narrowed",
    ],
  },
  {
    change: "an optional request property added",
    breaking: false,
    edit: (doc) => {
      doc.components.schemas.NewThing.properties.size = { type: "integer" };
    },
    rules: [],
  },
  {
    change: "a schema no operation uses changes its type",
    breaking: true,
    edit: (doc) => {
      doc.components.schemas.Unused.properties.a = { type: "integer" };
    },
    rules: ["package-type-changed"],
  },
  {
    change: "an operationId the generator cannot name",
    breaking: true,
    edit: (doc) => {
      doc.paths["/things"].get.operationId = "listEverything";
    },
    rules: ["package-generation-failed"],
  },
  {
    change: "descriptions and examples",
    breaking: false,
    edit: (doc) => {
      doc.components.schemas.Thing.description = "A thing.";
      doc.components.schemas.Kind.example = "Small";
    },
    rules: [],
  },
];

const seen = new Set<string>();

describe("package rules, each change labelled", () => {
  it.each(cases)("$change", { timeout: 120_000 }, async ({ edit, breaking, rules }) => {
    const base = spec() as OpenApiDocument;
    const head = edited(edit);
    const packages = await diffPackages(base, head);
    const wire = diffSpecs(base, head);
    const found = [...packages.breaking, ...packages.additions].map((change) => change.rule);
    for (const rule of found) seen.add(rule);
    expect(found.sort()).toEqual([...rules].sort());
    expect(packages.breaking.length + wire.breaking.length > 0).toBe(breaking);
    for (const change of packages.breaking) {
      expect(change.operation).toMatch(/^@org\/payments-(types|client)$|^packages$/);
      expect(change.message).toContain(RULES[change.rule]?.fix);
    }
  });

  it("every package rule that can be raised has a labelled change above", () => {
    const packageRules = Object.keys(RULES).filter((rule) => rule.startsWith("package-"));
    expect([...seen].sort()).toEqual(packageRules.sort());
  });
});
