// The "Mock the API in your front end and tests" guide runs as printed: its ```ts vitest files run
// in a vitest project of their own, MSW's setupServer (the first) and MSW answering at the fetch
// call (the second) intercepting the client's fetch.
import { expect, it } from "vitest";
import { guideVitestFiles, runVitestProject } from "./support/guide-vitest.ts";

it("runs the guide's test files against sandboxHandlers with setupServer and at the fetch call", async () => {
  const files = guideVitestFiles("mock-front-end");
  expect(files).toHaveLength(2);
  const [overSetupServer = "", atFetchCall = ""] = files;
  expect(overSetupServer).toContain("setupServer(...handlers)");
  expect(atFetchCall).toContain("new InterceptorSource({ interceptors: [fetchCall] })");
  const results = await runVitestProject({
    "payments.test.ts": overSetupServer,
    "payments-fetch.test.ts": atFetchCall,
  });
  expect(results.sort()).toEqual([
    "activates a customer and tells the webhook: passed",
    "activates a customer, fetch answered at the call: passed",
    "shows the app's error path with a fault armed for one request: passed",
  ]);
}, 120_000);
