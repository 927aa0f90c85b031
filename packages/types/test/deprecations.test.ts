// A deprecation's sunset date and replacement (`x-sunset`, `x-replacement`) reach the `@deprecated`
// tags of the generated types; a deprecation with neither keeps a bare tag.
import type { OpenApiDocument } from "@org/payments-spec";
import { describe, expect, it } from "vitest";
import { generateSchema } from "../scripts/generate.ts";

const answer = {
  "200": {
    description: "A widget",
    content: { "application/json": { schema: { $ref: "#/components/schemas/Widget" } } },
  },
};
/** A tiny document: a deprecated operation, a deprecated field with a sunset, one without. */
const doc = {
  openapi: "3.1.0",
  info: { title: "deprecations", version: "1" },
  paths: {
    "/gadgets": {
      post: {
        operationId: "createGadget",
        description: "Makes a gadget.",
        deprecated: true,
        "x-sunset": "2027-06-30",
        "x-replacement": "`createWidget`",
        responses: answer,
      },
    },
  },
  components: {
    schemas: {
      Widget: {
        type: "object",
        properties: {
          legacy_code: {
            type: "string",
            description: "The widget's code of old.\nKept for old clients.",
            deprecated: true,
            "x-sunset": "2027-03-31",
            "x-replacement": "`code`",
          },
          old_name: { type: "string", deprecated: true, "x-sunset": "2027-04-30" },
          note: { type: "string", deprecated: true },
          code: { type: "string" },
        },
      },
    },
  },
} as unknown as OpenApiDocument;

describe("deprecations in the generated types", () => {
  it("puts the sunset and the replacement on the @deprecated tag, the description after", async () => {
    // Compared with its indentation collapsed: the files are formatted after generation.
    const code = (await generateSchema(doc)).replace(/\s+/g, " ");
    expect(code).toContain(
      "* @deprecated Sunset 2027-03-31. Use `code` instead. * @description The widget's code of old. * Kept for old clients. */ legacy_code?: string;",
    );
    expect(code).toContain("* @deprecated Sunset 2027-04-30. */ old_name?: string;");
    expect(code).toContain(
      "* @deprecated Sunset 2027-06-30. Use `createWidget` instead. * @description Makes a gadget. */ post: operations",
    );
    expect(code).toContain("/** @deprecated */ note?: string;");
    expect(code).not.toContain("⟦");
  });
});
