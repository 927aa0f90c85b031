// The test-mode document is held to the same third-party rules as the API's: Spectral's
// `spectral:oas` ruleset reports nothing (its $refs into partner-payments.yaml resolved).
import { readFileSync } from "node:fs";
import { Document, type RulesetDefinition, Spectral } from "@stoplight/spectral-core";
import * as Parsers from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";
import { expect, it } from "vitest";
import { testModeSpecPath } from "../src/index.js";

it("spectral:oas reports nothing on the test-mode document", async () => {
  const spectral = new Spectral();
  spectral.setRuleset({
    extends: [[oas as RulesetDefinition, "all"]],
    // As for the API's document (test/spectral.test.ts): tags in the order a partner meets them,
    // and a contact with no public URL or email.
    rules: { "openapi-tags-alphabetical": "off", "contact-properties": "off" },
  });
  const document = new Document(
    readFileSync(testModeSpecPath, "utf8"),
    Parsers.Yaml,
    testModeSpecPath,
  );
  const results = await spectral.run(document);
  const found = results.map(
    (result) => `${result.code} at ${result.path.join(".")}: ${result.message}`,
  );
  expect(found).toEqual([]);
});
