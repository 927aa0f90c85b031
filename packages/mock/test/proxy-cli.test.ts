// The built CLI's proxy command, as a user runs it against a fake upstream: the summary and exit
// code on SIGINT/SIGTERM with --fail-on-violation, the report and traffic files (the traffic read
// by payments-mock readiness --from), --errors and bad arguments.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type FakeUpstream, startFakeUpstream } from "./support/fake-upstream.js";
import { send } from "./support/http.js";
import { reportViolations, trafficLines } from "./support/report-lines.js";
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
      // The report holds the violations only.
      expect(reportViolations(report).map((line) => line.operation)).toEqual([
        "listCustomers",
        null,
      ]);
    },
  );

  it("writes violations to --report only and each answered request to --traffic, which readiness --from reads", async (context) => {
    const report = path.join(directory, "violations.jsonl");
    const traffic = path.join(directory, "traffic.jsonl");
    const proxy = runCli(context, [
      "proxy",
      fake.url,
      "--port",
      "0",
      "--report",
      report,
      "--traffic",
      traffic,
    ]);
    const url = await proxy.url;
    const headers = { "X-API-Key": KEY };
    const fine = await send(url, { target: "/customers?page_size=5", headers });
    expect(fine.status).toBe(200);
    const quoteQuery = new URLSearchParams({
      customer_id: "0b7e3c52-6a1f-4d8e-9c2b-3f4a5b6c7d8e",
      source_currency_code: "EUR",
      destination_currency_code: "USDC",
      destination_currency_chain: "Polygon",
      recipient_account: "DE89370400440532013000",
      amount_in: "1000.00",
      rate_expiry_policy: "Return",
      expiry_in_hours: "24",
      is_third_party: "false",
    });
    const quote = await send(url, { target: `/autoramps/quote?${quoteQuery}`, headers });
    expect(quote.status).toBe(200);
    expect((await send(url, { target: "/customers?page_size=1000", headers })).status).toBe(422);
    // While traffic happens, a CI step reading the report sees whole violations only.
    expect(reportViolations(report).map((line) => [line.operation, line.rule])).toEqual([
      ["listCustomers", "maximum"],
    ]);
    proxy.child.kill("SIGTERM");
    expect(await proxy.exited).toEqual([0, null]);
    expect(reportViolations(report)).toHaveLength(1);
    expect(trafficLines(traffic)).toEqual([
      ["listCustomers", 200],
      ["getAutorampQuote", 200],
      ["listCustomers", 422],
    ]);

    const readiness = runCli(context, ["readiness", "--from", traffic, "--format", "json"], {
      PAYMENTS_API_KEY: "",
    });
    expect(await readiness.exited).toEqual([1, null]);
    const body = JSON.parse(readiness.output().stdout);
    expect(body.coverage.operations.listCustomers).toEqual({
      calls: 2,
      statuses: { "200": 1, "422": 1 },
    });
    expect(body.coverage.operations.getAutorampQuote.calls).toBe(1);
    expect(body.checks.find((check: { id: string }) => check.id === "quote")?.status).toBe(
      "passed",
    );

    // The report given to --from by mistake is refused, not read as no traffic.
    const mistaken = runCli(context, ["readiness", "--from", report], { PAYMENTS_API_KEY: "" });
    expect(await mistaken.exited).toEqual([2, null]);
    expect(mistaken.output().stderr).toContain(
      `${report} holds no traffic lines ("type": "exchange"): give --from the file of the proxy's --traffic`,
    );
  });

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
      'the upstream must be an http(s) URL, such as https://api.example.com, got "ftp://example.com"',
    ],
    // Refused by the proxy once started (exit code 1), quoting the password in the URL.
    [
      ["proxy", "http://partner:hunter2@a.example:99999"],
      "payments-mock: the upstream's port 99999 is past 65535",
    ],
    [
      ["proxy", "http://partner:hunter2@a.example/?v=1"],
      'the upstream must not have a query or a fragment (the requests\' paths follow it), got "http://…@a.example/?v=1"',
    ],
    [
      ["proxy", "ftp://partner:hunter2@example.com"],
      'the upstream must be an http(s) URL, such as https://api.example.com, got "ftp://…@example.com"',
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
      ["proxy", "http://a.example", "--report", "same.jsonl", "--traffic", "./same.jsonl"],
      "--traffic and --report must name different files",
    ],
    [
      ["proxy", "http://a.example", "--fail-on-violations"],
      "unknown option --fail-on-violations; did you mean --fail-on-violation?",
    ],
  ])("rejects %j with a clear message and exit code 2", async ([args, message], context) => {
    const proxy = runCli(context, args);
    expect((await proxy.exited)[0]).toBe(2);
    expect(proxy.output().stderr).toContain(message);
    expect(proxy.output().stderr).not.toContain("hunter2");
  });
});
