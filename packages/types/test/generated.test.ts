import { readFileSync } from "node:fs";
import { loadSpec } from "@org/payments-spec";
import { regenerateHint, staleGeneratedFiles } from "@org/payments-spec/codegen";
import { describe, expect, test } from "vitest";
import {
  constantName,
  generatedDir,
  generateFiles,
  generateNames,
  REGENERATE_COMMAND,
} from "../scripts/generate.ts";
import * as types from "../src/index.js";

const exported: Record<string, unknown> = { ...types };
const spec = loadSpec();
const schemas = spec.components.schemas as Record<string, { enum?: unknown[] }>;

/** The spec with one more schema, for generator edge cases. */
function specWithSchema(name: string, schema: object) {
  return { ...spec, components: { ...spec.components, schemas: { ...schemas, [name]: schema } } };
}

describe("committed generated files", () => {
  test("match a fresh generation from the spec", async () => {
    const stale = staleGeneratedFiles(generatedDir, await generateFiles());
    expect(stale, regenerateHint(REGENERATE_COMMAND)).toEqual([]);
  }, 30_000);
});

describe("deprecated fields carry @deprecated", () => {
  const sources = {
    "src/generated/schema.ts": readFileSync(
      new URL("../src/generated/schema.ts", import.meta.url),
      "utf8",
    ),
    "dist/index.d.mts": readFileSync(new URL("../dist/index.d.mts", import.meta.url), "utf8"),
  };

  /** The JSDoc comments written directly above each declaration of `field`. */
  function commentsAbove(source: string, field: string): string[] {
    const declaration = new RegExp(String.raw`/\*\*((?:(?!\*/)[\s\S])*)\*/\s*${field}\??:`, "g");
    return [...source.matchAll(declaration)].map((match) => match[1] ?? "");
  }

  for (const [file, source] of Object.entries(sources)) {
    for (const field of ["additional_partner_fee_in_bips", "deposit_account"]) {
      test(`${field} in ${file}`, () => {
        const declarations = source.split(new RegExp(String.raw`\b${field}\??:`)).length - 1;
        const comments = commentsAbove(source, field);
        expect(declarations).toBeGreaterThan(0);
        expect(comments).toHaveLength(declarations);
        for (const comment of comments) expect(comment).toContain("@deprecated");
      });
    }
  }
});

describe("enum arrays", () => {
  const enumSchemas = Object.entries(schemas).filter(([, schema]) => Array.isArray(schema.enum));

  test("the spec has enum schemas to export", () => {
    expect(enumSchemas.length).toBeGreaterThan(0);
  });

  test.each(enumSchemas)("%s is exported with the spec's values, in order", (name, schema) => {
    expect(exported[constantName(name)]).toEqual(schema.enum);
  });

  test("names are the SCREAMING_SNAKE plural of the schema name", () => {
    expect(constantName("WebhookTopic")).toBe("WEBHOOK_TOPICS");
    expect(constantName("CustomerStatus")).toBe("CUSTOMER_STATUSES");
    expect(constantName("RateExpiryPolicy")).toBe("RATE_EXPIRY_POLICIES");
    expect(constantName("Blockchain")).toBe("BLOCKCHAINS");
    expect(constantName("ACHDepositInfo")).toBe("ACH_DEPOSIT_INFOS");
  });
});

describe("friendly names", () => {
  test("a name that two spec items would share fails the generation", () => {
    const clash = specWithSchema("CreateCustomerBody", { type: "string" });
    expect(() => generateNames(clash)).toThrow(
      'POST /customers: the name "CreateCustomerBody" is already taken',
    );
  });

  test("a schema name that is no identifier fails the generation", () => {
    const invalid = specWithSchema("Not-An-Identifier", { type: "string" });
    expect(() => generateNames(invalid)).toThrow(
      'components.schemas.Not-An-Identifier: "Not-An-Identifier" is not a valid identifier',
    );
  });
});
