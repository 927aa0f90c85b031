// The committed src/generated/ matches a fresh generation from openapi/test-mode.yaml.
import { expect, test } from "vitest";
import { REGENERATE_COMMAND, staleFiles } from "../scripts/generate.ts";

test("the committed test-mode document and types match a fresh generation", async () => {
  expect(await staleFiles(), `run \`${REGENERATE_COMMAND}\` and commit the result`).toEqual([]);
}, 30_000);
