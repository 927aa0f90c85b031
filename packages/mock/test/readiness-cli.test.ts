// payments-mock readiness --from: the coverage of live traffic from a validating proxy's traffic
// file (--traffic; any other line passed over), decided by the same checks; and the refusals of
// what the CLI cannot report on, each exit code 2 with a sentence. The command runs by its main in
// this process; as the built CLI where the key is held not to be printed, and for the start of a
// sandbox that a bad profile stops.
import { once } from "node:events";
import { existsSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, type TestContext } from "vitest";
import { askSandbox, readinessMain } from "../src/readiness-cli.js";
import { runCli } from "./support/run-cli.js";
import { runMain } from "./support/run-main.js";

const directory = mkdtempSync(path.join(tmpdir(), "payments-readiness-cli-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Serves `handle` on a free port until the test ends; resolves to its URL. */
async function serve(context: TestContext, handle: RequestListener): Promise<string> {
  const server = createServer(handle).listen(0, "127.0.0.1");
  await once(server, "listening");
  context.onTestFinished(() => {
    server.closeAllConnections();
    return new Promise<void>((done) => server.close(() => done()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const exchange = (request: number, operation: string | null, status: number) =>
  JSON.stringify({
    type: "exchange",
    time: "2026-11-27T10:00:00.000Z",
    request,
    method: "GET",
    operation,
    status,
  });

describe("payments-mock readiness --from <traffic file>", () => {
  it("reports live traffic's operations and statuses; the checks of other facts are not run", async () => {
    const traffic = path.join(directory, "live.jsonl");
    writeFileSync(
      traffic,
      [
        exchange(1, "getAutorampQuote", 200),
        JSON.stringify({
          request: 2,
          operation: "listCustomers",
          location: "request",
          rule: "maximum",
        }),
        exchange(2, "listCustomers", 422),
        exchange(3, "listCustomers", 200),
        exchange(4, null, 404),
        "",
      ].join("\n"),
    );
    const run = await runMain(readinessMain, ["--from", traffic, "--format", "json"], {
      PAYMENTS_API_KEY: "",
    });
    expect(run.code).toBe(1);
    const body = JSON.parse(run.stdout);
    expect(body.coverage.operations.listCustomers).toEqual({
      calls: 2,
      statuses: { "200": 1, "422": 1 },
    });
    expect(body.coverage.operations.getAutorampQuote.calls).toBe(1);
    expect(body.coverage.operations.createCustomer.calls).toBe(0);
    const byId = Object.fromEntries(
      body.checks.map((check: { id: string; status: string }) => [check.id, check.status]),
    );
    expect(byId.quote).toBe("passed");
    expect(byId["person-active"]).toBe("not_run");
    expect(byId["webhooks-acknowledged"]).toBe("not_run");
  });

  it("says which line of a traffic file is not JSON", async () => {
    const traffic = path.join(directory, "broken.jsonl");
    writeFileSync(traffic, `${exchange(1, "listCustomers", 200)}\n{not json\n`);
    const run = await runMain(readinessMain, ["--from", traffic]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`line 2 of the traffic file ${traffic} is not JSON`);
  });

  it("reads a traffic file whose last line was cut short (the proxy killed mid-write, or still writing) up to it", async () => {
    const traffic = path.join(directory, "cut.jsonl");
    const whole = `${exchange(1, "listCustomers", 200)}\n${exchange(2, "listCustomers", 422)}\n`;
    writeFileSync(traffic, `${whole}${exchange(3, "listCustomers", 500).slice(0, 40)}`);
    const run = await runMain(readinessMain, ["--from", traffic, "--format", "json"]);
    expect(run.stderr).toBe("");
    const body = JSON.parse(run.stdout);
    expect(body.coverage.operations.listCustomers).toEqual({
      calls: 2,
      statuses: { "200": 1, "422": 1 },
    });
  });

  it("reads a traffic file a line at a time: past a string's size, a line longer than the proxy writes is named", async () => {
    const traffic = path.join(directory, "huge.jsonl");
    writeFileSync(traffic, `${exchange(1, "listCustomers", 200)}\n`.repeat(5_000));
    // 600 MB, mostly a hole of zero bytes: larger than a string can hold, one line past the 5,000.
    truncateSync(traffic, 600 * 2 ** 20);
    const run = await runMain(readinessMain, ["--from", traffic]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `payments-mock readiness: line 5001 of the traffic file ${traffic} is longer than 1 MiB: give --from the file of the proxy's --traffic\n`,
    );
  });

  it("refuses a state file that is not there, naming it, without making one", async () => {
    const missing = path.join(directory, "missing.db");
    const run = await runMain(readinessMain, ["--state", missing], { PAYMENTS_API_KEY: "k" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `no sandbox state file at ${missing}: give --state the file a sandbox keeps its data in (its own --state)`,
    );
    expect(existsSync(missing)).toBe(false);
  });

  it("refuses a state path that is a directory, without saying a file would be made", async () => {
    const run = await runMain(readinessMain, ["--state", directory], { PAYMENTS_API_KEY: "k" });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `payments-mock readiness: The sandbox state file ${directory} is a directory: give --state the path of a file\n`,
    );
  });

  it("names a bad profile's file, line and rule", async () => {
    const profile = path.join(directory, "bad.yaml");
    writeFileSync(
      profile,
      'format: 1\nname: team\nversion: "1"\nchecks:\n  - id: q\n    title: Q\n    operations:\n      getQuote: 2xx\n',
    );
    const report = path.join(directory, "empty.jsonl");
    writeFileSync(report, "");
    const run = await runMain(readinessMain, ["--from", report, "--readiness-profile", profile]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `readiness profile ${profile}:8:7: checks[0].operations.getQuote: getQuote is not an operationId of the API (rule: operationId)`,
    );
  });

  it("stops a sandbox's start on a bad profile, naming its file, line and rule", async (context) => {
    const profile = path.join(directory, "bad-start.yaml");
    writeFileSync(
      profile,
      'format: 1\nname: team\nversion: "1"\nchecks:\n  - id: q\n    paged: true\n',
    );
    const cli = runCli(context, ["--stateful", "--port", "0", "--readiness-profile", profile]);
    expect(await cli.exited).toEqual([1, null]);
    expect(cli.output().stderr).toContain(
      `payments-mock: readiness profile ${profile}:5:5: checks[0]: needs the field title (rule: required)`,
    );
    expect(cli.output().stdout).not.toContain("listening");
  });

  it("refuses a --url that answers a web page, naming it", async (context) => {
    const url = await serve(context, (_request, response) => {
      response.writeHead(200, { "content-type": "text/html" }).end("<html>Welcome</html>");
    });
    const run = await runMain(readinessMain, ["--url", url], { PAYMENTS_API_KEY: "k" });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `payments-mock readiness: ${url}_sandbox/readiness answered something other than a readiness report\n`,
    );
  });

  it("never prints part of the key when a --url's refusal echoes it where its quote is cut", async (context) => {
    const key = "sk_live_readiness-0123456789-abcdef";
    const url = await serve(context, (request, response) => {
      // The key straddles the 300 characters of the answer that the message quotes.
      const body = `${"x".repeat(290)} ${request.headers["x-api-key"]} is not a key of ours`;
      response.writeHead(401, { "content-type": "text/plain" }).end(body);
    });
    const run = await runMain(readinessMain, ["--url", url], { PAYMENTS_API_KEY: key });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("answered 401");
    expect(run.stderr).not.toContain(key.slice(0, 8));
  });

  it("says so when a --url never finishes its answer, rather than wait for ever", async (context) => {
    const url = await serve(context, (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).write('{"ready":');
    });
    const fail = (message: string): never => {
      throw new Error(`not this: ${message}`);
    };
    await expect(askSandbox(url, "payments-readiness-test-key", fail, 300)).rejects.toThrow(
      `no whole answer from ${new URL(url).origin} within 0.3 s`,
    );
  });

  it("refuses a --url with credentials without printing them", async () => {
    const run = await runMain(readinessMain, ["--url", "ftp://partner:hunter2@127.0.0.1:9/"], {
      PAYMENTS_API_KEY: "k",
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--url must not carry credentials");
    expect(run.stderr).not.toContain("hunter2");
    // One that is no URL was quoted whole, its password with it.
    const broken = await runMain(
      readinessMain,
      ["--url", "http://partner:hunter2@127.0.0.1:9:9/"],
      {
        PAYMENTS_API_KEY: "k",
      },
    );
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(
      `--url must be the sandbox's http(s) URL, such as http://127.0.0.1:4010, got "http://…@127.0.0.1:9:9/"`,
    );
    expect(broken.stderr).not.toContain("hunter2");
  });

  it("refuses a --url whose port is past 65535, saying so", async () => {
    const run = await runMain(readinessMain, ["--url", "http://127.0.0.1:99999"], {
      PAYMENTS_API_KEY: "k",
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "payments-mock: --url has the port 99999, past 65535: give the sandbox's URL with its port, such as http://127.0.0.1:4010",
    );
  });

  it("never prints the key, even in a refusal it reports", async (context) => {
    const key = "secret-key-for-readiness-cli-test";
    const cli = runCli(context, ["readiness", "--url", "http://127.0.0.1:9"], {
      PAYMENTS_API_KEY: key,
    });
    expect(await cli.exited).toEqual([2, null]);
    const { stdout, stderr } = cli.output();
    expect(stderr).toContain("no answer from http://127.0.0.1:9");
    expect(stdout + stderr).not.toContain(key);
  });
});
