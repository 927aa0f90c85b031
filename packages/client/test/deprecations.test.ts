// A deprecated operation's facade method carries `@deprecated` with its sunset date and
// replacement (`x-sunset`, `x-replacement`); the other methods carry none.
import type { OpenApiDocument } from "@org/payments-spec";
import { describe, expect, it } from "vitest";
import { render } from "../scripts/generate.ts";

const answer = {
  "200": {
    description: "A widget",
    content: { "application/json": { schema: { type: "object" } } },
  },
};
/** A tiny document: one operation deprecated with a sunset and a replacement, one not. */
const doc = {
  openapi: "3.1.0",
  info: { title: "deprecations", version: "1" },
  tags: [{ name: "Widgets", description: "Widgets." }],
  paths: {
    "/widgets": {
      get: {
        operationId: "listWidgets",
        tags: ["Widgets"],
        summary: "List widgets",
        responses: answer,
      },
      post: {
        operationId: "createWidget",
        tags: ["Widgets"],
        summary: "Create a widget",
        deprecated: true,
        "x-sunset": "2027-06-30",
        "x-replacement": "`createGadget`",
        responses: answer,
      },
    },
  },
} as unknown as OpenApiDocument;

describe("deprecations in the facade", () => {
  const resources = render(doc)["resources.ts"] ?? "";

  it("marks the deprecated operation's method with its sunset and replacement", () => {
    expect(resources).toMatch(
      /\* `POST \/widgets` \(createWidget\)\n\s*\* @deprecated Sunset 2027-06-30\. Use `createGadget` instead\.\n\s*\*\/\n\s*create\(/,
    );
  });

  it("leaves the other methods unmarked", () => {
    expect(resources.match(/@deprecated/g)).toHaveLength(1);
    expect(resources).toMatch(/\(listWidgets\)\n\s*\*\/\n\s*list\(/);
  });
});
