// The committed src/generated/ matches a fresh generation from openapi/test-mode.yaml.

import { regenerateHint, staleGeneratedFiles } from "@org/payments-spec/codegen";
import { expect, test } from "vitest";
import { generatedDir, generateFiles, REGENERATE_COMMAND } from "../scripts/generate.ts";

test("the committed test-mode document and types match a fresh generation", async () => {
  const stale = staleGeneratedFiles(generatedDir, await generateFiles());
  expect(stale, regenerateHint(REGENERATE_COMMAND)).toEqual([]);
}, 30_000);
