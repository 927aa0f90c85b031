// The "Mock the API in your front end and tests" guide runs as printed: its ```ts vitest file runs
// in a vitest project of its own, MSW's setupServer intercepting the client's fetch.
import { expect, it } from "vitest";
import { guideVitestFiles, runVitestProject } from "./support/guide-vitest.ts";

it("runs the guide's test file against sandboxHandlers with MSW's setupServer", async () => {
  const files = guideVitestFiles("mock-front-end");
  expect(files).toHaveLength(1);
  const [tests = ""] = files;
  expect(tests).toContain("setupServer(...handlers)");
  expect(await runVitestProject({ "payments.test.ts": tests })).toEqual([
    "activates a customer and tells the webhook: passed",
    "shows the app's error path with a fault armed for one request: passed",
  ]);
}, 120_000);
