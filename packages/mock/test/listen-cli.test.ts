// payments-mock listen: the partner's events streamed from a sandbox and posted to a local
// receiver as a webhook delivery posts them; "Ready" once the stream is open; through a restart
// of the sandbox, a restart of listen itself (its --cursor-file) and a stop while an event is in
// flight, every event arrives once (a customer's in order); events the sandbox no longer holds
// are said; the receiver's answers count in the readiness report; the key is never printed; a
// URL that answers no event stream is refused.
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { specPath } from "@org/payments-spec";
import { call, newKey, startReceiver } from "@org/payments-testing";
import { afterAll, describe, expect, it, type TestContext } from "vitest";
import { type RunningSandbox, startMock } from "../src/index.js";
import { runCli } from "./support/run-cli.js";
import { startTcpRelay } from "./support/tcp-relay.js";

const dir = mkdtempSync(join(tmpdir(), "payments-listen-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = `listen-key-${crypto.randomUUID()}`;

async function createCustomer(url: string, email: string): Promise<string> {
  const answer = await call(url, "POST", "/customers", {
    body: { customer_type: "Person", email },
    headers: { ...newKey(), "X-API-Key": KEY },
  });
  expect(answer.status).toBe(200);
  return answer.body.id;
}

/** Resolves once `read()` holds; fails after 20 s with what it last read. */
async function until<T>(read: () => T, done: (value: T) => boolean, what: string): Promise<T> {
  for (let tries = 0; tries < 400; tries++) {
    const value = read();
    if (done(value)) return value;
    await new Promise((wake) => setTimeout(wake, 50));
  }
  throw new Error(`${what}: ${JSON.stringify(read())}`);
}

function listen(context: TestContext, url: string, args: string[]) {
  const run = runCli(context, ["listen", "--url", url, ...args], { PAYMENTS_API_KEY: KEY });
  const ready = until(
    () => run.output().stdout,
    (out) => /Ready|"type":"ready"/.test(out),
    "no Ready line",
  );
  return { ...run, ready };
}

describe("payments-mock listen", () => {
  it("forwards every event once, in order, through a restart of the sandbox and of listen", async (context) => {
    const receiver = await startReceiver();
    context.onTestFinished(() => receiver.stop());
    const state = join(dir, "listen.db");
    const cursorFile = join(dir, "listen.cursor");
    let sandbox: RunningSandbox = await startMock({
      spec: specPath,
      stateful: true,
      state,
      port: 0,
    });
    const port = sandbox.port;
    context.onTestFinished(() => sandbox.stop());

    const args = [
      "--forward-to",
      `${receiver.url}/hooks`,
      "--events",
      "CustomerCreated",
      "--cursor-file",
      cursorFile,
    ];
    const first = listen(context, sandbox.url, args);
    await first.ready;
    const customers = [await createCustomer(sandbox.url, "first@example.com")];
    await until(
      () => receiver.deliveries.length,
      (n) => n === 1,
      "the first event",
    );

    // The first answer is told to the sandbox before it stops (one told during the stop may or may
    // not have been counted, so listen does not tell it twice: the counts below would miss it).
    await expect
      .poll(
        async () =>
          (
            await call(sandbox.url, "GET", "/_sandbox/readiness", {
              headers: { "X-API-Key": KEY },
            })
          ).body.coverage.topics.CustomerCreated?.acknowledged,
        { timeout: 20_000, interval: 50 },
      )
      .toBe(1);
    // The sandbox restarts on its port and state; listen opens the stream again by itself.
    await sandbox.stop();
    sandbox = await startMock({ spec: specPath, stateful: true, state, port });
    await until(
      () => first.output().stderr,
      (err) => err.includes("open again"),
      "listen did not reconnect",
    );
    customers.push(await createCustomer(sandbox.url, "second@example.com"));
    await until(
      () => receiver.deliveries.length,
      (n) => n === 2,
      "the event after the restart",
    );

    // listen stops; an event happens meanwhile; listen starts again from its cursor file.
    first.child.kill("SIGTERM");
    expect((await first.exited)[0]).toBe(0);
    expect(readFileSync(cursorFile, "utf8").split("\n")[0]).toMatch(/^[0-9]+$/);
    customers.push(await createCustomer(sandbox.url, "third@example.com"));
    const second = listen(context, sandbox.url, [...args, "--format", "json"]);
    await second.ready;
    await until(
      () => receiver.deliveries.length,
      (n) => n >= 3,
      "the event while listen was down",
    );
    customers.push(await createCustomer(sandbox.url, "fourth@example.com"));
    await until(
      () => receiver.deliveries.length,
      (n) => n >= 4,
      "the event after listen restarted",
    );
    // listen prints an event's line once the receiver has answered: on a busy machine, after it.
    await until(
      () => second.output().stdout.trim().split("\n").length,
      (n) => n >= 3,
      "listen's line for the event after it restarted",
    );
    // Nothing more comes (no duplicate of a forwarded event).
    await new Promise((wake) => setTimeout(wake, 300));

    const forwarded = receiver.deliveries.map((request) => request.body);
    expect(forwarded.map((event) => event.data.id)).toEqual(customers);
    expect(forwarded.every((event) => event.topic === "CustomerCreated")).toBe(true);
    for (const request of receiver.deliveries) {
      expect(request.path).toBe("/hooks");
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["user-agent"]).toBe("payments-mock-sandbox");
      expect(Number(request.headers["content-length"])).toBe(Buffer.byteLength(request.text));
    }

    // One line per event: the time, the topic, the event id, the receiver's status, the time taken.
    const lines = first.output().stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^Ready: streaming CustomerCreated of http/);
    expect(lines.slice(1)).toHaveLength(2);
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\S+Z  CustomerCreated +  ${forwarded[0].id}  → 204 ${receiver.url}/hooks  [0-9.]+ ms$`,
      ),
    );
    const json = second
      .output()
      .stdout.trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(json[0]).toMatchObject({ type: "ready" });
    expect(json.slice(1)).toEqual([
      expect.objectContaining({
        type: "event",
        topic: "CustomerCreated",
        event_id: forwarded[2].id,
        status: 204,
      }),
      expect.objectContaining({
        type: "event",
        topic: "CustomerCreated",
        event_id: forwarded[3].id,
        status: 204,
      }),
    ]);

    // The receiver's answers are the partner's acknowledgements (reported before listen exits).
    second.child.kill("SIGTERM");
    await second.exited;
    const readiness = await call(sandbox.url, "GET", "/_sandbox/readiness", {
      headers: { "X-API-Key": KEY },
    });
    expect(readiness.body.coverage.topics.CustomerCreated).toMatchObject({
      delivered: 4,
      acknowledged: 4,
    });

    const printed = [first, second].map((run) => JSON.stringify(run.output())).join("");
    expect(printed).not.toContain(KEY);
  }, 90_000);

  it("finishes the event in flight when stopped: its line printed, its cursor kept, nothing forwarded twice after", async (context) => {
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const receiver = await startReceiver(async (_, response) => {
      await answered;
      response.writeHead(204).end();
    });
    context.onTestFinished(() => receiver.stop());
    const sandbox = await startMock({ spec: specPath, stateful: true, port: 0 });
    context.onTestFinished(() => sandbox.stop());
    // listen reaches the sandbox through a relay, whose connections show when it let go.
    const relay = await startTcpRelay(sandbox.port);
    context.onTestFinished(() => relay.close());
    const cursorFile = join(dir, "in-flight.cursor");
    const args = ["--forward-to", `${receiver.url}/hooks`, "--cursor-file", cursorFile];
    const first = listen(context, relay.url, [...args, "--events", "CustomerCreated"]);
    await first.ready;
    const customers = [await createCustomer(sandbox.url, "in-flight@example.com")];
    await until(
      () => receiver.deliveries.length,
      (n) => n === 1,
      "the event at the receiver",
    );
    // Stopped while the receiver has not answered: listen closes its stream, then the answer comes.
    first.child.kill("SIGTERM");
    await until(
      () => relay.open(),
      (n) => n === 0,
      "listen kept its stream open",
    );
    answer();
    expect((await first.exited)[0]).toBe(0);
    const lines = first.output().stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    const event = receiver.deliveries[0]?.body ?? {};
    expect(lines[1]).toContain(`${event.id}  → 204`);

    const second = listen(context, relay.url, [...args, "--events", "CustomerCreated"]);
    await second.ready;
    customers.push(await createCustomer(sandbox.url, "after@example.com"));
    await until(
      () => receiver.deliveries.length,
      (n) => n >= 2,
      "the event after listen restarted",
    );
    second.child.kill("SIGTERM");
    expect((await second.exited)[0]).toBe(0);
    const forwarded = receiver.deliveries.map((request) => request.body);
    expect(forwarded.map((body) => body.data.id)).toEqual(customers);
  }, 60_000);

  it("counts a receiver's answer given while the sandbox restarted, once it is back", async (context) => {
    let answer = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const receiver = await startReceiver(async (_, response) => {
      await answered;
      response.writeHead(204).end();
    });
    context.onTestFinished(() => receiver.stop());
    const state = join(dir, "receipts.db");
    let sandbox: RunningSandbox = await startMock({
      spec: specPath,
      stateful: true,
      state,
      port: 0,
    });
    const port = sandbox.port;
    context.onTestFinished(() => sandbox.stop());
    const run = listen(context, sandbox.url, ["--forward-to", `${receiver.url}/hooks`]);
    await run.ready;
    await createCustomer(sandbox.url, "restart@example.com");
    await until(
      () => receiver.deliveries.length,
      (n) => n >= 1,
      "the event at the receiver",
    );
    // The receiver answers while the sandbox is down: the receipt cannot be told to it then.
    await sandbox.stop();
    answer();
    await until(
      () => run.output().stdout.split("\n").length,
      (n) => n >= 3,
      "no line for the event",
    );
    sandbox = await startMock({ spec: specPath, stateful: true, state, port });
    await until(
      () => run.output().stderr,
      (err) => err.includes("open again"),
      "listen did not reconnect",
    );
    run.child.kill("SIGTERM");
    expect((await run.exited)[0]).toBe(0);
    const readiness = await call(sandbox.url, "GET", "/_sandbox/readiness", {
      headers: { "X-API-Key": KEY },
    });
    const topics = readiness.body.coverage.topics;
    const total = (field: "delivered" | "acknowledged") =>
      Object.values(topics as Record<string, Record<string, number>>).reduce(
        (sum, topic) => sum + (topic[field] ?? 0),
        0,
      );
    expect({ delivered: total("delivered"), acknowledged: total("acknowledged") }).toEqual({
      delivered: receiver.deliveries.length,
      acknowledged: receiver.deliveries.length,
    });
  }, 60_000);

  it("forwards every event once through connections cut while events keep coming", async (context) => {
    const receiver = await startReceiver();
    context.onTestFinished(() => receiver.stop());
    const sandbox = await startMock({ spec: specPath, stateful: true, port: 0 });
    context.onTestFinished(() => sandbox.stop());
    const relay = await startTcpRelay(sandbox.port);
    context.onTestFinished(() => relay.close());
    const run = listen(context, relay.url, ["--forward-to", `${receiver.url}/hooks`]);
    await run.ready;
    const made: string[] = [];
    let cuts = 0;
    for (let index = 0; index < 60; index++) {
      made.push(await createCustomer(sandbox.url, `cut${index}@example.com`));
      // Events go on being made while listen opens the stream again, then it is open once more.
      if (index % 6 === 5 && relay.cut() > 0) cuts++;
      if (index % 6 === 2) {
        await until(
          () => String(run.output().stderr.match(/open again/g)?.length ?? 0),
          (n) => Number(n) >= cuts,
          "listen did not reconnect",
        );
      }
    }
    expect(cuts).toBe(10);
    await until(
      () => receiver.deliveries.length,
      (n) => n >= 60,
      "every event",
    );
    await new Promise((wake) => setTimeout(wake, 300));
    const forwarded = receiver.deliveries.map((request) => request.body);
    // Each customer's event once; those of different customers may pass one another, as the
    // sandbox's own deliveries do (one customer's stay in order: test/listen/in-flight.test.ts).
    expect(forwarded.map((event) => event.data.id).sort()).toEqual([...made].sort());
    expect(new Set(forwarded.map((event) => event.id)).size).toBe(60);
  }, 60_000);

  it("sends a topic of --forward to its own receiver, the rest to --forward-to", async (context) => {
    const [rest, statuses] = [await startReceiver(), await startReceiver()];
    context.onTestFinished(async () => {
      await Promise.all([rest.stop(), statuses.stop()]);
    });
    const sandbox = await startMock({ spec: specPath, stateful: true, port: 0 });
    context.onTestFinished(() => sandbox.stop());
    // The rest's receiver takes basic auth: the delivery sends it, no line prints its password.
    const run = listen(context, sandbox.url, [
      "--forward-to",
      `${rest.url.replace("http://", "http://hook:hunter2@")}/rest`,
      "--forward",
      `CustomerStatus=${statuses.url}/statuses`,
    ]);
    await run.ready;
    const customer = await createCustomer(sandbox.url, "routed@example.com");
    const walked = await call(sandbox.url, "POST", `/_sandbox/customers/${customer}/status`, {
      body: { status: "Active" },
      headers: { "X-API-Key": KEY },
    });
    expect(walked.status).toBe(200);
    await until(
      () => statuses.deliveries.length,
      (n) => n > 0,
      "no CustomerStatus event",
    );
    await until(
      () => rest.deliveries.length,
      (n) => n > 0,
      "no CustomerCreated event",
    );
    const topics = (receiver: typeof rest) =>
      new Set(receiver.deliveries.map((request) => request.body.topic));
    expect(topics(statuses)).toEqual(new Set(["CustomerStatus"]));
    expect(topics(rest).has("CustomerStatus")).toBe(false);
    expect(topics(rest).has("CustomerCreated")).toBe(true);
    expect(statuses.deliveries[0]?.path).toBe("/statuses");
    expect(rest.deliveries[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from("hook:hunter2").toString("base64")}`,
    );
    const shown = rest.url.replace("http://", "http://hook:…@");
    await until(
      () => run.output().stdout,
      (out) => out.includes(`→ 204 ${shown}/rest`),
      "no line of the rest's delivery",
    );
    expect(run.output().stdout).toContain(`the rest to ${shown}/rest`);
    expect(run.output().stdout + run.output().stderr).not.toContain("hunter2");
  }, 30_000);

  it("says on stderr which events the sandbox no longer holds, and forwards those it does", async (context) => {
    const receiver = await startReceiver();
    context.onTestFinished(() => receiver.stop());
    const sandbox = await startMock({ spec: specPath, stateful: true, port: 0 });
    context.onTestFinished(() => sandbox.stop());
    await createCustomer(sandbox.url, "gone@example.com");
    const reset = await call(sandbox.url, "POST", "/_sandbox/reset", {
      headers: { "X-API-Key": KEY },
    });
    expect(reset.status).toBe(200);
    const kept = await createCustomer(sandbox.url, "kept@example.com");
    const run = listen(context, sandbox.url, [
      "--after",
      "0",
      "--forward-to",
      `${receiver.url}/hooks`,
    ]);
    await run.ready;
    await until(
      () => receiver.deliveries.length,
      (n) => n > 0,
      "no event forwarded",
    );
    expect(receiver.deliveries.map((request) => request.body.data.id)).toEqual([kept]);
    expect(run.output().stderr).toContain(
      "the log no longer holds events 1 to 1 (it keeps only a partner's newest events, and a reset empties it): those events cannot be forwarded",
    );
  }, 30_000);

  it("refuses a URL that answers a web page rather than an event stream, without saying Ready", async (context) => {
    const page = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" }).end("<html>Welcome</html>");
    });
    page.listen(0, "127.0.0.1");
    await once(page, "listening");
    context.onTestFinished(() => new Promise<void>((done) => page.close(() => done())));
    const url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    const run = runCli(context, ["listen", "--url", url], { PAYMENTS_API_KEY: KEY });
    expect((await run.exited)[0]).toBe(2);
    expect(run.output().stderr).toContain(
      `answered 200 with text/html, not an event stream: is ${url} the sandbox (--url, PAYMENTS_BASE_URL)?`,
    );
    expect(run.output().stdout).not.toContain("Ready");
  });

  it("refuses a topic that is not one, a bad receiver URL and a missing key, with exit code 2", async (context) => {
    for (const [args, env, message] of [
      [["--events", "Nope"], { PAYMENTS_API_KEY: KEY }, '--events: "Nope" is not a webhook topic'],
      [
        ["--forward-to", "ftp://x"],
        { PAYMENTS_API_KEY: KEY },
        "--forward-to must be the receiver's http(s) URL",
      ],
      [
        ["--forward", "CustomerCreated"],
        { PAYMENTS_API_KEY: KEY },
        "--forward takes <Topic>=<url>",
      ],
      [
        ["--events", "CustomerStatus", "--forward", "CustomerCreated=http://127.0.0.1:9/"],
        { PAYMENTS_API_KEY: KEY },
        "--forward CustomerCreated=… names a topic --events leaves out, so its receiver would get nothing: add CustomerCreated to --events, or leave --events out",
      ],
      // Quoted whole, its password with it.
      [
        ["--forward-to", "http://hook:hunter2@127.0.0.1:99999/"],
        { PAYMENTS_API_KEY: KEY },
        `--forward-to must be the receiver's http(s) URL, got "http://…@127.0.0.1:99999/"`,
      ],
      [[], { PAYMENTS_API_KEY: "" }, "set PAYMENTS_API_KEY"],
    ] as Array<[string[], Record<string, string>, string]>) {
      const run = runCli(context, ["listen", ...args], env);
      expect((await run.exited)[0]).toBe(2);
      expect(run.output().stderr).toContain(message);
      expect(run.output().stderr).not.toContain("hunter2");
    }
  });
});
