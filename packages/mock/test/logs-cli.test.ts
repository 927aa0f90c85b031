// payments-mock logs tail: the partner's request log as it grows, filtered by status class, path,
// method, operation and request id; each line with the X-Request-Id the request was answered
// with; never a body or a key; a URL that answers no request log is refused.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { specPath } from "@org/payments-spec";
import { newKey } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { type RunningSandbox, startMock } from "../src/index.js";
import { runCli } from "./support/run-cli.js";

const KEY = `logs-key-${crypto.randomUUID()}`;
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startMock({ spec: specPath, stateful: true, port: 0 });
});
afterAll(() => sandbox.stop());

/** Sends a request as the partner; resolves to the X-Request-Id it was answered with. */
async function send(method: string, path: string, body?: unknown): Promise<string> {
  const response = await fetch(sandbox.url + path, {
    method,
    headers: {
      "X-API-Key": KEY,
      ...(body !== undefined && { "Content-Type": "application/json", ...newKey() }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  await response.text();
  return response.headers.get("x-request-id") ?? "";
}

async function until(read: () => string, done: (text: string) => boolean, what: string) {
  for (let tries = 0; tries < 400; tries++) {
    if (done(read())) return read();
    await new Promise((wake) => setTimeout(wake, 50));
  }
  throw new Error(`${what}: ${read()}`);
}

function tail(context: TestContext, args: string[]) {
  const run = runCli(context, ["logs", "tail", "--url", sandbox.url, ...args], {
    PAYMENTS_API_KEY: KEY,
  });
  const ready = until(
    () => run.output().stdout,
    (out) => /Ready|"ready"/.test(out),
    "no Ready line",
  );
  return { ...run, ready };
}

describe("payments-mock logs tail", () => {
  it("prints the partner's new requests that pass the filters, with their request ids, no body or key", async (context) => {
    await send("GET", "/customers");
    const clientErrors = tail(context, ["--status", "4xx", "--path", "/customers"]);
    const creates = tail(context, ["--operation", "createCustomer", "--format", "json"]);
    await Promise.all([clientErrors.ready, creates.ready]);

    await send("POST", "/customers", { customer_type: "Person", email: "secret-body@example.com" });
    const refused = await send("POST", "/customers", {
      customer_type: "Robot",
      email: "x@example.com",
    });
    await send("GET", "/customers");
    const missing = await send("GET", "/customers/6b1d3f5a-7c9e-4b2d-8f1a-3c5e7a9b1d2f/signings");

    const text = await until(
      () => clientErrors.output().stdout,
      (out) => out.includes(missing),
      "the 404 was not printed",
    );
    const lines = text.trim().split("\n");
    expect(lines[0]).toMatch(/^Ready: tailing the request log of http/);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(
        new RegExp(`POST +/customers  → 422 .* createCustomer  request-id=${refused}$`),
      ),
      expect.stringMatching(
        new RegExp(`GET +/customers/\\S+/signings  → 404 .* listSignings  request-id=${missing}$`),
      ),
    ]);

    const json = await until(
      () => creates.output().stdout,
      (out) => out.includes(refused),
      "the refused create was not printed",
    );
    const entries = json
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => JSON.parse(line));
    expect(entries.map((entry) => [entry.operation_id, entry.status])).toEqual([
      ["createCustomer", 200],
      ["createCustomer", 422],
    ]);
    expect(entries[1]).toMatchObject({ type: "request", request_id: refused, method: "POST" });

    const printed = JSON.stringify([clientErrors.output(), creates.output()]);
    expect(printed).not.toContain(KEY);
    expect(printed).not.toContain("secret-body@example.com");
  }, 60_000);

  it("finds the request a client's error quotes by its id", async (context) => {
    const byId = tail(context, ["--request-id", "quoted-by-a-client"]);
    await byId.ready;
    await send("GET", "/customers");
    const response = await fetch(`${sandbox.url}/customers?page_size=1`, {
      headers: { "X-API-Key": KEY, "X-Request-Id": "quoted-by-a-client" },
    });
    expect(response.headers.get("x-request-id")).toBe("quoted-by-a-client");
    const out = await until(
      () => byId.output().stdout,
      (text) => text.includes("request-id=quoted-by-a-client"),
      "the quoted request was not printed",
    );
    expect(out.trim().split("\n")).toHaveLength(2);
  }, 30_000);

  it("refuses a URL that answers a web page, or JSON that is no request log, naming it", async (context) => {
    // /page/: a web page; any other path: JSON whose entries have no numeric id.
    const other = createServer((request, response) => {
      const [type, body] = request.url?.startsWith("/page/")
        ? ["text/html", "<html>Welcome</html>"]
        : ["application/json", '{"items":[{"id":"abc"}]}'];
      response.writeHead(200, { "content-type": type }).end(body);
    });
    other.listen(0, "127.0.0.1");
    await once(other, "listening");
    context.onTestFinished(() => new Promise<void>((done) => other.close(() => done())));
    for (const prefix of ["/page/", "/other/"]) {
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}${prefix}`;
      const run = runCli(context, ["logs", "tail", "--url", url], { PAYMENTS_API_KEY: KEY });
      expect((await run.exited)[0]).toBe(2);
      expect(run.output().stderr).toBe(
        `payments-mock logs tail: cannot read the request log: ${prefix}_sandbox/requests answered something other than a page of the request log: is ${url} the sandbox (--url, PAYMENTS_BASE_URL)?\n`,
      );
    }
  });

  it("refuses a status that is not one, a path without /, no subcommand and no key, with exit code 2", async (context) => {
    for (const [args, env, message] of [
      [
        ["tail", "--status", "4x"],
        { PAYMENTS_API_KEY: KEY },
        "--status must be a status (404) or a class (4xx)",
      ],
      [["tail", "--path", "customers"], { PAYMENTS_API_KEY: KEY }, "--path must start with /"],
      [["follow"], { PAYMENTS_API_KEY: KEY }, 'payments-mock logs tail, got "follow"'],
      [[], { PAYMENTS_API_KEY: KEY }, "payments-mock logs tail, got nothing"],
      [["tail"], { PAYMENTS_API_KEY: "" }, "set PAYMENTS_API_KEY"],
    ] as Array<[string[], Record<string, string>, string]>) {
      const run = runCli(context, ["logs", ...args], env);
      expect((await run.exited)[0]).toBe(2);
      expect(run.output().stderr).toContain(message);
    }
  });
});
