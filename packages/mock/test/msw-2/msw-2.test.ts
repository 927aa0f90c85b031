// In the mock-msw2 project, `msw` is msw 2 (vitest.config.ts): what makes the handlers' test there
// a test under msw 2, the oldest major of the peer range. The handlers are msw 2's own.
import { HttpHandler } from "msw";
import mswPackage from "msw/package.json" with { type: "json" };
import { expect, it } from "vitest";
import { sandboxHandlers } from "../../src/msw/index.js";

it("makes the handlers with msw 2's http", async () => {
  expect(mswPackage.version).toMatch(/^2\./);
  const handlers = sandboxHandlers({ baseUrl: "https://payments.api.test" });
  try {
    expect(handlers).toHaveLength(1);
    expect(handlers[0]).toBeInstanceOf(HttpHandler);
  } finally {
    await handlers.close();
  }
});
