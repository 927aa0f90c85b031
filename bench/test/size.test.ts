// The bundle-size budgets, the client's and the in-page sandbox's, enforced on every `pnpm test`. Sizes only: timings are never
// asserted in tests (see `pnpm bench`).
import { describe, expect, it } from "vitest";
import {
  apps,
  BUNDLE_BUDGET_BYTES,
  bundleApp,
  IN_PAGE_BUDGET_BYTES,
  inPageSandbox,
} from "../src/bundle-size.ts";

describe("an app on @org/payments-client that makes one call", () => {
  it(`bundles to at most ${BUNDLE_BUDGET_BYTES} bytes minified and gzipped`, async () => {
    const { gzippedBytes } = await bundleApp(apps.client);
    expect(gzippedBytes).toBeLessThanOrEqual(BUNDLE_BUDGET_BYTES);
  });

  it("really contains the client, so the budget measures it", async () => {
    const { code } = await bundleApp(apps.client);
    expect(code).toContain("X-API-Key");
    expect(code).toContain("IDEMPOTENCY-KEY");
  });
});

describe("the in-page sandbox (@org/payments-mock/browser)", () => {
  it(`is at most ${IN_PAGE_BUDGET_BYTES} bytes gzipped, and is the sandbox`, () => {
    const { code, gzippedBytes } = inPageSandbox();
    expect(gzippedBytes).toBeLessThanOrEqual(IN_PAGE_BUDGET_BYTES);
    // The sandbox's own words and both documents' operations are in it.
    expect(code).toContain("browserSandbox");
    expect(code).toContain("createCustomer");
    expect(code).toContain("/_sandbox/clock/advance");
  });
});
