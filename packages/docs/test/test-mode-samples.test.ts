// The test-mode reference's TypeScript samples: every route the typed controls send has one (the
// others are named), and each runs as printed, with Node (one process runs them in turn), against
// a sandbox started here, reset before each (as its curl sample does). The build type-checks them
// too (tsconfig.samples.json).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startMock } from "@org/payments-mock";
import { listOperations, type OpenApiDocument } from "@org/payments-spec";
import { startTestSandbox, type TestServer } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtTestModeSpecPath } from "../src/built-paths.ts";
import { WITHOUT_CONTROL } from "../src/test-mode-samples.ts";
import { startSamplesProcess } from "./support/samples-process.ts";

/** The routes whose example id the sandbox never holds. */
const NOT_HELD = ["redeliverEvent", "disarmFault"];
const doc = JSON.parse(readFileSync(builtTestModeSpecPath, "utf8")) as OpenApiDocument;
const samples = listOperations(doc).map(({ operationId, operation }) => ({
  operationId,
  typescript: (operation["x-codeSamples"] as { lang: string; source: string }[]).find(
    (sample) => sample.lang === "TypeScript",
  )?.source,
}));
// Inside the package, so that @org/payments-mock resolves to the workspace's.
const work = mkdtempSync(path.join(import.meta.dirname, "../.guide-programs-"));
let sandbox: TestServer;
let samplesProcess: ReturnType<typeof startSamplesProcess>;

beforeAll(async () => {
  sandbox = await startTestSandbox((state) => startMock({ stateful: true, state }));
  // One Node for every sample, so that the packages they import load once.
  samplesProcess = startSamplesProcess(work, {
    PATH: process.env.PATH ?? "",
    PAYMENTS_BASE_URL: sandbox.url,
  });
});
afterAll(async () => {
  await samplesProcess?.stop();
  await sandbox?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("the test-mode reference's TypeScript samples", () => {
  it("are on every route a typed control sends", () => {
    expect(samples.filter((s) => !s.typescript).map((s) => s.operationId)).toEqual(WITHOUT_CONTROL);
  });

  it("run as printed, each on a freshly reset sandbox", async () => {
    for (const { operationId, typescript } of samples) {
      if (!typescript) continue;
      await fetch(`${sandbox.url}/_sandbox/reset`, {
        method: "POST",
        headers: { "X-API-Key": "sandbox-key" },
      });
      const file = path.join(work, `${operationId}.ts`);
      writeFileSync(file, `${typescript}\n`);
      const outcome = await samplesProcess.run(file);
      // No log holds the example's event id, and no rule has the example's fault id (each id is
      // new): their samples get the 404.
      if (NOT_HELD.includes(operationId)) expect(outcome, operationId).toMatch(/\b404\b/);
      else expect(outcome, `${operationId}\n${typescript}`).toBe("ok");
    }
  }, 120_000);
});
