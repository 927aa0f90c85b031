// The built CLI's proxy command, as a user runs it against a fake upstream: the summary and exit
// code on SIGINT/SIGTERM with --fail-on-violation, the report file, --errors and bad arguments.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Violation } from "../src/index.js";
import { type FakeUpstream, startFakeUpstream } from "./support/fake-upstream.js";
import { send } from "./support/http.js";
import { runCli } from "./support/run-cli.js";

const mockUrl = inject("mockUrl");
const KEY = "sk_live_do-not-print-7f3a";
let fake: FakeUpstream;
let directory: string;

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), "payments-proxy-cli-"));
  fake = await startFakeUpstream(mockUrl);
});
afterAll(async () => {
  await fake?.stop();
  rmSync(directory, { recursive: true, force: true });
});

// Concurrent: each test waits mostly for a CLI process to load Prism.
describe.concurrent("payments-mock proxy", () => {
  it.for(["SIGTERM", "SIGINT"] as const)(
    "with --fail-on-violation, prints the summary and exits 1 on %s after violations",
    async (signal, context) => {
      const report = path.join(directory, `${signal}.jsonl`);
      const proxy = runCli(context, [
        "proxy",
        fake.url,
        "--port",
        "0",
        "--report",
        report,
        "--fail-on-violation",
      ]);
      const url = await proxy.url;
      const bad = await send(url, {
        target: "/customers?page_size=1000",
        headers: { "X-API-Key": KEY },
      });
      expect(bad.status).toBe(422); // the mock behind the fake upstream refuses it too
      const unnamed = await send(url, { target: "/refunds", headers: { "X-API-Key": KEY } });
      expect(unnamed.status).toBe(404);

      proxy.child.kill(signal);
      expect(await proxy.exited).toEqual([1, null]);
      const { stdout } = proxy.output();
      expect(stdout).toMatch(
        /GET \/customers\?page_size=1000 → 422 request-id=\S+ — 1 violation: listCustomers request: query page_size: must be at most 100; got 1000\n/,
      );
      expect(stdout).toContain(
        "payments-mock proxy: 2 violations\n  listCustomers: 1\n  (no operation): 1",
      );
      expect(stdout).not.toContain(KEY);
      const lines = readFileSync(report, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Violation & { type?: string; status?: number });
      const violations = lines.filter((line) => line.type !== "exchange");
      expect(violations.map((line) => line.operation)).toEqual(["listCustomers", null]);
      // Each answered request is a line too, for payments-mock readiness --from.
      expect(
        lines
          .filter((line) => line.type === "exchange")
          .map((line) => [line.operation, line.status]),
      ).toEqual([
        ["listCustomers", 422],
        [null, 404],
      ]);
    },
  );

  it("with --fail-on-violation, exits 0 when there were none", async (context) => {
    const proxy = runCli(context, [
      "proxy",
      fake.url,
      "--port",
      "0",
      "--fail-on-violation",
      "--quiet",
    ]);
    const url = await proxy.url;
    const fine = await send(url, { target: "/webhooks", headers: { "X-API-Key": KEY } });
    expect(fine.status).toBe(200);
    proxy.child.kill("SIGTERM");
    expect(await proxy.exited).toEqual([0, null]);
    expect(proxy.output().stdout).toContain("payments-mock proxy: no violations");
    expect(proxy.output().stdout).not.toContain("GET /webhooks"); // --quiet
  });

  it("without --fail-on-violation, exits 0 even after violations", async (context) => {
    const proxy = runCli(context, ["proxy", fake.url, "--port", "0"]);
    const url = await proxy.url;
    await send(url, { target: "/customers?page_size=1000", headers: { "X-API-Key": KEY } });
    proxy.child.kill("SIGTERM");
    expect(await proxy.exited).toEqual([0, null]);
    expect(proxy.output().stdout).toContain("payments-mock proxy: 1 violation");
  });

  it("with --errors, refuses an invalid request before the upstream sees it", async (context) => {
    const proxy = runCli(context, ["proxy", fake.url, "--port", "0", "--errors"]);
    const url = await proxy.url;
    const target = "/webhooks?page_size=abc";
    const answer = await send(url, { target, headers: { "X-API-Key": KEY } });
    expect(answer.status).toBe(422);
    expect(JSON.stringify(answer.json())).toContain("page_size");
    expect(fake.received.some((received) => received.url === target)).toBe(false);
  });

  it("answers 502 when the upstream cannot be reached", async (context) => {
    const proxy = runCli(context, ["proxy", "http://127.0.0.1:1", "--port", "0"]);
    const answer = await send(await proxy.url, {
      target: "/webhooks",
      headers: { "X-API-Key": KEY },
    });
    expect(answer.status).toBe(502);
  });

  it.for<[string[], string]>([
    [["proxy"], "proxy needs the upstream's URL"],
    [
      ["proxy", "ftp://example.com"],
      'the upstream must be an http(s) URL, got "ftp://example.com"',
    ],
    [["proxy", "http://a.example", "http://b.example"], 'unexpected argument "http://b.example"'],
    [
      ["proxy", "http://a.example", "--upstream-timeout", "soon"],
      "--upstream-timeout must be a positive number of seconds",
    ],
    [["proxy", "http://a.example", "--dynamic"], "unknown option --dynamic; the options are"],
    [
      ["proxy", "http://a.example", "--reportt", "r.jsonl"],
      "unknown option --reportt; did you mean --report?",
    ],
    [
      ["proxy", "http://a.example", "--fail-on-violations"],
      "unknown option --fail-on-violations; did you mean --fail-on-violation?",
    ],
  ])("rejects %j with a clear message and exit code 2", async ([args, message], context) => {
    const proxy = runCli(context, args);
    expect((await proxy.exited)[0]).toBe(2);
    expect(proxy.output().stderr).toContain(message);
  });
});
