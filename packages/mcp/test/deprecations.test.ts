// A deprecated operation's tool says so first in its description, with its sunset date and
// replacement (`x-sunset`, `x-replacement`); the other tools' descriptions are the spec's.
import { loadSpec } from "@org/payments-spec";
import { fixtureSpecPath } from "@org/payments-testing";
import { describe, expect, it } from "vitest";
import { buildTools } from "../scripts/generate.ts";

const tools = buildTools([{ group: "api", doc: loadSpec(fixtureSpecPath("deprecations")) }]);
const descriptionOf = (name: string) => tools.find((tool) => tool.name === name)?.description;

describe("deprecations in the MCP tools", () => {
  it("puts the deprecation, its sunset and replacement before the description", () => {
    expect(descriptionOf("createGadget")).toBe(
      "Deprecated: Sunset 2027-06-30. Use `createWidget` instead. Makes a gadget, the widget of old.",
    );
  });

  it("leaves the description of a tool that is not deprecated as the spec's", () => {
    expect(descriptionOf("createWidget")).toBe("Makes a widget.");
  });

  it("keeps a deprecated field marked in the tool's input schema", () => {
    const tool = tools.find((candidate) => candidate.name === "createWidget");
    expect(JSON.stringify(tool?.inputSchema)).toMatch(/"legacy_code":\{[^}]*"deprecated":true/);
  });
});
