// The client's bundle-size budget, enforced on every `pnpm test`. Sizes only: timings are never
// asserted in tests (see `pnpm bench`).
import { describe, expect, it } from "vitest";
import { apps, BUNDLE_BUDGET_BYTES, bundleApp } from "../src/bundle-size.ts";

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
