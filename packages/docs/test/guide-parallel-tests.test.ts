// The "Tests in parallel" guide runs as printed: its two ```ts vitest files run in a vitest project
// of their own, each test at once against one sandbox, each a partner of its own.
import { expect, it } from "vitest";
import { guideVitestFiles, runVitestProject } from "./support/guide-vitest.ts";

it("runs the guide's parallel tests, each in a partner of its own, against one sandbox", async () => {
  const files = guideVitestFiles("parallel-tests");
  expect(files).toHaveLength(2);
  const [setup = "", tests = ""] = files;
  expect(setup).toContain("startMock({ stateful: true })");
  expect(tests).toContain("describe.concurrent");
  const results = await runVitestProject(
    { "sandbox-setup.ts": setup, "onboarding.test.ts": tests },
    { globalSetup: ["./sandbox-setup.ts"] },
  );
  expect(results).toEqual([
    "activates Ada: passed",
    "activates Grace: passed",
    "activates Alan: passed",
  ]);
}, 120_000);
