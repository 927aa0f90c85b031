// The test-mode document, bundled: every `$ref` local and resolvable, the API's components copied
// unchanged under their own names, and a name two documents use differently refused.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { loadBundledSpec, loadSpec, resolveRef, specPath, testModeSpecPath } from "../src/index.js";

const dir = mkdtempSync(path.join(tmpdir(), "bundle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refsOf(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsOf);
  if (typeof node !== "object" || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === "$ref" && typeof value === "string" ? [value] : refsOf(value),
  );
}

it("bundles the test-mode document into one with local $refs only", () => {
  const bundled = loadBundledSpec(testModeSpecPath);
  const refs = refsOf(bundled);
  expect(refs.filter((ref) => !ref.startsWith("#/"))).toEqual([]);
  for (const ref of refs) expect(() => resolveRef(bundled, ref)).not.toThrow();
  const api = loadSpec(specPath);
  expect(bundled.components.schemas?.WebhookTopic).toEqual(api.components.schemas?.WebhookTopic);
  // Pulled in through Customer, which the status route answers.
  expect(bundled.components.schemas?.CustomerStatus).toEqual(
    api.components.schemas?.CustomerStatus,
  );
  expect(bundled.paths).toHaveProperty(["/_sandbox/clock"]);
});

it("leaves a document without other files' $refs as it is", () => {
  expect(loadBundledSpec(specPath)).toEqual(loadSpec(specPath));
});

it("refuses a component name both documents use for different things", () => {
  writeFileSync(
    path.join(dir, "other.yaml"),
    "openapi: 3.1.0\ncomponents:\n  schemas:\n    Name: { type: integer }\n",
  );
  const main = path.join(dir, "main.yaml");
  writeFileSync(
    main,
    [
      "openapi: 3.1.0",
      "paths: {}",
      "components:",
      "  schemas:",
      "    Name: { type: string }",
      "    Uses: { $ref: './other.yaml#/components/schemas/Name' }",
      "",
    ].join("\n"),
  );
  expect(() => loadBundledSpec(main)).toThrow(/components.schemas.Name of .\/other.yaml/);
});
