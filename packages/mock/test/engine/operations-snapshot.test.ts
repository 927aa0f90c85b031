// The build stores Prism's reading of the shipped spec and of the test-mode document, and the mock
// and the fixture runner start from them: each must be exactly what Prism reads from its document,
// and is not used for any other text.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { operationsFromSnapshot, operationsSnapshot } from "@org/payments-engine";
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import { describe, expect, it } from "vitest";

const dist = (file: string) => fileURLToPath(new URL(`../../dist/${file}`, import.meta.url));

describe("the operations snapshot", () => {
  it("the build's holds exactly what Prism reads from the shipped spec", async () => {
    const text = readFileSync(dist("partner-payments.yaml"), "utf8");
    const stored = operationsFromSnapshot(text, readFileSync(dist("partner-payments.operations")));
    expect(stored).toEqual(await getHttpOperationsFromSpec(dist("partner-payments.yaml")));
  });

  it("the build's holds exactly what Prism reads from the test-mode document, as the engine reads it", async () => {
    const text = readFileSync(dist("test-mode.json"), "utf8");
    const stored = operationsFromSnapshot(text, readFileSync(dist("test-mode.operations")));
    expect(stored).toEqual(await getHttpOperationsFromSpec(JSON.parse(text)));
  });

  it("is not used for a spec whose text is not the one it was read from", async () => {
    const text = readFileSync(dist("partner-payments.yaml"), "utf8");
    const operations = await getHttpOperationsFromSpec(dist("partner-payments.yaml"));
    const snapshot = operationsSnapshot(text, operations);
    expect(operationsFromSnapshot(text, snapshot)).toEqual(operations);
    expect(operationsFromSnapshot(`${text}\n`, snapshot)).toBeUndefined();
  });
});
