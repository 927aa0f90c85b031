// The built CLI in sandbox mode: --stateful serves the sandbox, --state persists it, bad use is
// refused, and the typed controls drive a sandbox in another process.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call, createCustomer, persistentState, startReceiver } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { sandboxControls } from "../src/index.js";
import { fileScope, runCli } from "./support/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "payments-sandbox-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// `payments-mock --stateful` with its defaults (a memory store), which the health and the
// controls tests share: each reads or changes only what its own key's partner holds.
const scope = fileScope();
afterAll(scope.stop);
let sandbox: ReturnType<typeof runCli>;
let sandboxUrl: string;
beforeAll(async () => {
  sandbox = runCli(scope, ["--port", "0", "--stateful"]);
  sandboxUrl = await sandbox.url;
});

const run = (context: TestContext, args: string[]) => runCli(context, ["--port", "0", ...args]);

describe.concurrent("payments-mock --stateful", () => {
  it("serves the sandbox and keeps its data in the --state file across restarts", async (context) => {
    const state = await persistentState(dir, "cli-state.db");
    const first = run(context, ["--stateful", "--state", state]);
    const customer = await createCustomer(await first.url, { name: "From the CLI" });
    expect(first.output().stdout).toMatch(/stateful sandbox, state in (SQLite file|Postgres) /);
    first.child.kill("SIGTERM");
    expect(await first.exited).toEqual([0, null]);

    const second = run(context, ["--stateful", "--state", state]);
    const listed = await call(await second.url, "GET", "/customers?page_size=100");
    expect(listed.body.items).toContainEqual(customer);
  }, 60_000);

  it.for<[string[], string]>([
    [["--state", "x.json"], "--state needs --stateful"],
    [["--seed", "x.json"], "--seed needs --stateful"],
    [["--delivery-chaos", "7"], "--delivery-chaos needs --stateful"],
    [
      ["--stateful", "--delivery-chaos", "often"],
      '--delivery-chaos must be a whole number (the seed of its choices), got "often"',
    ],
    [["--max-partners", "20"], "--max-partners needs --stateful"],
    [
      ["--stateful", "--max-partners", "many"],
      '--max-partners must be a whole number of partners, 0 for no limit, got "many"',
    ],
  ])("rejects %j with exit code 2", async ([args, message], context) => {
    const mock = run(context, args);
    expect((await mock.exited)[0]).toBe(2);
    expect(mock.output().stderr).toContain(message);
  });

  it("says it listens only once the sandbox is ready: GET /_sandbox/health answers 200 then", async () => {
    const health = await call(sandboxUrl, "GET", "/_sandbox/health", {
      headers: { "X-API-Key": "" },
    });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: "ready", store: "memory" });
    const { version } = JSON.parse(
      readFileSync(new URL("../package.json", import.meta.url), "utf8"),
    );
    expect(health.body.version).toBe(version);
    expect(sandbox.output().stdout.match(/listening on/g)).toHaveLength(1);
  }, 30_000);

  it("keeps at most --max-partners partners, refusing a new key past them", async (context) => {
    const mock = run(context, ["--stateful", "--max-partners", "2"]);
    const url = await mock.url;
    const clock = (key: string) =>
      call(url, "GET", "/_sandbox/clock", { headers: { "X-API-Key": key } });
    expect((await clock("cli-partner-1")).status).toBe(200);
    expect((await clock("cli-partner-2")).status).toBe(200);
    const refused = await clock("cli-partner-3");
    expect(refused.status).toBe(503);
    expect(refused.body.detail).toContain("at most 2 partners");
    expect((await clock("cli-partner-1")).status).toBe(200);
  }, 30_000);

  it("exits 1 naming a state file that is not sandbox state", async (context) => {
    const state = join(dir, "broken.json");
    writeFileSync(state, "[]");
    const mock = run(context, ["--stateful", "--state", state]);
    expect((await mock.exited)[0]).toBe(1);
    expect(mock.output().stderr).toContain(`The sandbox state file ${state} is not valid`);
  }, 30_000);

  it("names a seed file that is not JSON without printing its control characters raw", async (context) => {
    const seed = join(dir, "titled.json");
    writeFileSync(seed, "\x1b]0;owned\x07{}");
    const mock = run(context, ["--stateful", "--seed", seed]);
    expect((await mock.exited)[0]).toBe(1);
    const { stderr } = mock.output();
    expect(stderr).toContain(`The sandbox seed file ${seed} cannot be read`);
    expect(stderr).toContain("\\u001b]0;owned\\u0007");
    expect(stderr).not.toMatch(/(?![\n\t])\p{Cc}/u);
  }, 30_000);
});

it("drives the same routes of a sandbox in another process with sandboxControls", async (context) => {
  const controls = sandboxControls(sandboxUrl, { apiKey: "stateful-cli-controls" });
  const hook = await startReceiver();
  context.onTestFinished(() => hook.stop());
  const webhook = await controls.addWebhook({ url: `${hook.url}/hook`, topics: ["Ping"] });
  expect(webhook).toMatchObject({ enabled: true, label: "", topics: ["Ping"] });
  const moved = await controls.advanceClock({ seconds: 86_400 });
  expect(Date.parse(moved.now)).toBeGreaterThan(Date.now() + 86_000_000);
  await expect(controls.advanceClock({ seconds: -1 })).rejects.toThrow(
    /POST \/_sandbox\/clock\/advance answered 422: body seconds: must be at least 0/,
  );
});
