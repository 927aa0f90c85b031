// The guard over what @org/payments-mock exports from the test-mode document: its typed controls
// and their types, compared between two versions of the document as the API's packages are.
import { loadBundledSpec, type OpenApiDocument, testModeSpecPath } from "@org/payments-spec";
import { describe, expect, it } from "vitest";
import { diffTestModePackage } from "../src/index.ts";

// biome-ignore lint/suspicious/noExplicitAny: the tests edit documents as loose JSON
type Json = Record<string, any>;

const released = loadBundledSpec(testModeSpecPath);

function changed(edit: (doc: Json) => void): OpenApiDocument {
  const doc = structuredClone(released) as Json;
  edit(doc);
  return doc as OpenApiDocument;
}

const rules = async (head: OpenApiDocument) => {
  const { breaking, additions } = await diffTestModePackage(released, head);
  return {
    breaking: breaking.map((change) => `${change.rule} ${change.location}`),
    additions: additions.map((change) => `${change.rule} ${change.location}`),
  };
};

describe("the test mode's package surface", () => {
  it("sees no change between a document and itself, generic methods included", async () => {
    expect(await rules(released)).toEqual({ breaking: [], additions: [] });
  }, 60_000);

  it("breaks when an answer's type admits more: a delivery attempt's field made optional", async () => {
    const head = changed((doc) => {
      const attempt = doc.components.schemas.DeliveryAttempt;
      attempt.required = attempt.required.filter((name: string) => name !== "delivered");
    });
    expect((await rules(head)).breaking).toEqual(
      expect.arrayContaining([
        "package-response-type-widened export DeliveryAttempt",
        "package-method-result-widened export SandboxControls.events",
        "package-method-result-widened export SandboxControls.redeliver",
      ]),
    );
  }, 60_000);

  it("breaks when an option accepts less, and not when it accepts more", async () => {
    const narrowed = changed((doc) => {
      doc.components.schemas.Deposit.properties.currency = { type: "string", enum: ["EUR"] };
    });
    expect((await rules(narrowed)).breaking).toEqual(
      expect.arrayContaining([
        "package-request-type-narrowed export DepositOptions",
        "package-method-arguments-narrowed export SandboxControls.deposit",
      ]),
    );
    const widened = changed((doc) => {
      doc.components.schemas.NewWebhook.required = ["url"];
    });
    const { breaking, additions } = await rules(widened);
    expect(breaking).toEqual([]);
    expect(additions).toContain("package-request-type-widened export WebhookOptions");
  }, 60_000);
});
