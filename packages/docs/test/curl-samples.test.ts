// Runs every curl sample of the built site, as printed, against a sandbox started here: the
// samples the docs server serves beside that sandbox (no environment set: their defaults must
// work), and those of the static build with $PAYMENTS_BASE_URL pointing at it. Each must be
// answered with a 2xx, which the sandbox's request log shows. The test-mode reference's samples
// too, each on a sandbox reset before it (a status walk changes what the next sample finds).
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { startMock } from "@org/payments-mock";
import { listOperations, type OpenApiDocument } from "@org/payments-spec";
import { startReceiver, startTestSandbox, type TestServer } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { distDir } from "../src/built-paths.ts";
import { TEST_MODE_INIT_SCRIPT } from "../src/pages.ts";
import { INIT_SCRIPT } from "../src/self-contained.ts";
import { startStaticServer } from "../src/static-server.ts";
import { pointWebhooksAt } from "./support/point-webhooks.ts";
import { curlAndJq } from "./support/shell-tools.ts";

const run = promisify(execFile);

let sandbox: TestServer;
let docs: Awaited<ReturnType<typeof startStaticServer>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
// The shell, curl and jq: nothing else is on the samples' PATH. One folder for the file's samples.
let tools: ReturnType<typeof curlAndJq>;
const log: string[] = [];

beforeAll(async () => {
  tools = curlAndJq();
  sandbox = await startTestSandbox((state) =>
    startMock({ stateful: true, state, log: (line) => log.push(line) }),
  );
  docs = await startStaticServer({ root: distDir, sandbox: sandbox.url });
  receiver = await startReceiver();
  // The pingWebhook sample delivers to the seed's webhook: here, not to the seed's internet host.
  await pointWebhooksAt(sandbox.url, receiver.url);
}, 60_000);

afterAll(async () => {
  tools?.remove();
  await docs?.close();
  await sandbox?.stop();
  await receiver?.stop();
});

/** The curl samples of the spec that Redoc's init script holds (what the page shows), in order. */
function curlSamples(initScript: string) {
  const json = /^const __redoc_definition = (.*);$/m.exec(initScript)?.[1];
  if (!json) throw new Error(`no __redoc_definition in ${INIT_SCRIPT}`);
  return listOperations(JSON.parse(json) as OpenApiDocument).map(({ operationId, operation }) => {
    const samples = operation["x-codeSamples"] as { lang: string; source: string }[];
    const curl = samples.find((sample) => sample.lang === "curl");
    if (!curl) throw new Error(`${operationId} has no curl sample`);
    return { operationId, source: curl.source };
  });
}

/**
 * Runs a sample in bash as printed, with only PATH (and `env`) set, and returns the log lines it
 * caused. A stream's sample (`curl -N`) goes on until it is stopped, as a reader stops it: after a
 * second.
 */
async function runSample(source: string, env: Record<string, string> = {}) {
  const from = log.length;
  const stream = source.startsWith("curl -N ");
  await run(tools.bash, ["-c", source], {
    env: { PATH: tools.PATH, ...env },
    timeout: stream ? 1_000 : 30_000,
  }).catch((error: { killed?: boolean }) => {
    if (!stream || error.killed !== true) throw error;
  });
  return log.slice(from);
}

/** Every sample answered 2xx (the sandbox's log has one such line per sample). */
async function expectEverySampleAnswered2xx(
  samples: { operationId: string; source: string }[],
  env?: Record<string, string>,
) {
  expect(samples).toHaveLength(23);
  for (const { operationId, source } of samples) {
    const lines = await runSample(source, env);
    expect(lines, `${operationId}: ${source}`).toHaveLength(1);
    expect(lines[0], `${operationId}: ${source}`).toMatch(/ → 2\d\d( |$)/);
  }
}

describe("the curl samples", () => {
  it("run as printed from the page the docs server serves beside the sandbox", async () => {
    const served = await fetch(new URL(INIT_SCRIPT, docs.url)).then((answer) => answer.text());
    const samples = curlSamples(served);
    for (const { source } of samples) {
      expect(source).toContain(`\${PAYMENTS_BASE_URL:-${sandbox.url}}`);
    }
    await expectEverySampleAnswered2xx(samples);
  }, 120_000);

  it("run as printed from the static build, with PAYMENTS_BASE_URL set", async () => {
    await fetch(`${sandbox.url}/_sandbox/reset`, {
      method: "POST",
      headers: { "X-API-Key": "test" },
    });
    await pointWebhooksAt(sandbox.url, receiver.url);
    const samples = curlSamples(readFileSync(path.join(distDir, INIT_SCRIPT), "utf8"));
    for (const { source } of samples) {
      // The printed default is the local sandbox's usual address.
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
      expect(source).toContain("${PAYMENTS_BASE_URL:-http://127.0.0.1:4010}");
    }
    await expectEverySampleAnswered2xx(samples, { PAYMENTS_BASE_URL: sandbox.url });
  }, 120_000);
});

describe("the test-mode reference's curl samples", () => {
  it("run as printed, each on a freshly reset sandbox", async () => {
    const served = await fetch(new URL(TEST_MODE_INIT_SCRIPT, docs.url)).then((a) => a.text());
    const samples = curlSamples(served);
    expect(samples.length).toBeGreaterThanOrEqual(17);
    for (const { operationId, source } of samples) {
      expect(source).toContain(`\${PAYMENTS_BASE_URL:-${sandbox.url}}`);
      await fetch(`${sandbox.url}/_sandbox/reset`, {
        method: "POST",
        headers: { "X-API-Key": "sandbox-key" },
      });
      const lines = await runSample(source);
      expect(lines, `${operationId}: ${source}`).toHaveLength(1);
      // An event's id and a fault rule's are new for each, so the sandbox holds neither
      // example's: their samples get the 404 their pages document.
      const status = ["redeliverEvent", "disarmFault"].includes(operationId)
        ? / → 404 /
        : / → 2\d\d( |$)/;
      expect(lines[0], `${operationId}: ${source}`).toMatch(status);
    }
  }, 120_000);
});
