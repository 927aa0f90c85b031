import { call, newKey, startReceiver } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

const WEBHOOK = "/webhooks/f3a7c1e5-9b4d-4f2a-8c6e-1a3b5d7f9e02";
const CUSTOMER = "3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f";

let sandbox: HttpSandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  sandbox = await startSandbox();
  receiver = await startReceiver();
});
afterAll(async () => {
  await sandbox.stop();
  await receiver.stop();
});

async function pointWebhook(body: Record<string, unknown>) {
  const answer = await call(sandbox.url, "PATCH", WEBHOOK, { body: { enabled: true, ...body } });
  expect(answer.status).toBe(200);
  return answer.body;
}

const ping = () =>
  call(sandbox.url, "POST", `${WEBHOOK}/ping`, {
    body: { customer_id: CUSTOMER },
    headers: newKey(),
  });

async function webhook() {
  return (await call(sandbox.url, "GET", "/webhooks")).body.items[0];
}

describe("webhook deliveries", () => {
  it("ping POSTs a JSON Ping event carrying the customer and answers true on a 2xx", async () => {
    receiver.answerWith((_, response) => response.writeHead(204).end());
    await pointWebhook({ url: `${receiver.url}/hook` });
    const before = receiver.deliveries.length;
    expect((await ping()).body).toBe(true);
    const delivery = receiver.deliveries[before];
    expect(delivery?.path).toBe("/hook");
    expect(delivery?.headers["content-type"]).toBe("application/json");
    expect(delivery?.body).toMatchObject({ topic: "Ping", customer_id: CUSTOMER });
  });

  it("sends a user and password in the url as Basic authorization", async () => {
    receiver.answerWith((_, response) => response.writeHead(204).end());
    const { host } = new URL(receiver.url);
    await pointWebhook({ url: `http://hook%20user:p%40ss@${host}/private` });
    const before = receiver.deliveries.length;
    expect((await ping()).body).toBe(true);
    const delivery = receiver.deliveries[before];
    expect(delivery?.path).toBe("/private");
    const basic = `Basic ${Buffer.from("hook user:p@ss").toString("base64")}`;
    expect(delivery?.headers.authorization).toBe(basic);
  });

  it("answers false on a 5xx and records last_failure and last_failure_reason", async () => {
    receiver.answerWith((_, response) => response.writeHead(503).end("down"));
    await pointWebhook({ url: `${receiver.url}/failing` });
    expect((await ping()).body).toBe(false);
    const failed = await webhook();
    expect(failed.last_failure_reason).toBe(`HTTP 503 from ${receiver.url}/failing`);
    expect(Date.parse(failed.last_failure)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("does not follow a redirect", async () => {
    receiver.answerWith((_, response) => response.writeHead(302, { location: "/elsewhere" }).end());
    await pointWebhook({ url: `${receiver.url}/moved` });
    const before = receiver.deliveries.length;
    expect((await ping()).body).toBe(false);
    expect(receiver.deliveries.slice(before).map((d) => d.path)).toEqual(["/moved"]);
    expect((await webhook()).last_failure_reason).toMatch(/redirects are not followed/);
  });

  it("gives up on a receiver that never answers, even under forced garbage collections", async () => {
    receiver.answerWith(() => {});
    await pointWebhook({ url: `${receiver.url}/silent` });
    const gc = globalThis.gc;
    if (gc === undefined) throw new Error("run with node --expose-gc (vitest.config.ts execArgv)");
    const before = receiver.deliveries.length;
    const answer = ping();
    // Once the delivery waits at the receiver, only what the sandbox holds can end the wait (a
    // timer, a signal): collections then would take one held weakly, and the ping would hang.
    // Collected when the delivery is known to be in flight, not on a timer that starves a busy CI.
    await receiver.waitFor(before + 1);
    for (let round = 0; round < 5; round++) {
      gc();
      await new Promise((turn) => setImmediate(turn));
    }
    expect((await answer).body).toBe(false);
    expect((await webhook()).last_failure_reason).toMatch(/no answer from .*\/silent within/);
  });

  it("reads only a little of a huge answer", async () => {
    receiver.answerWith((_, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      const chunk = "x".repeat(64 * 1024);
      const pump = () => {
        while (response.write(chunk)) {}
        if (!response.destroyed) response.once("drain", pump);
      };
      pump();
    });
    await pointWebhook({ url: `${receiver.url}/huge` });
    expect((await ping()).body).toBe(true);
  });

  it("records a failure for a receiver that cannot be reached", async () => {
    const gone = await startReceiver();
    await gone.stop();
    await pointWebhook({ url: `${gone.url}/gone` });
    expect((await ping()).body).toBe(false);
    expect((await webhook()).last_failure_reason).toMatch(/could not be reached/);
  });

  it("does not call a disabled webhook", async () => {
    receiver.answerWith((_, response) => response.writeHead(204).end());
    await pointWebhook({ url: `${receiver.url}/disabled`, enabled: false });
    const before = receiver.deliveries.length;
    expect((await ping()).body).toBe(false);
    const status = await call(sandbox.url, "POST", `/_sandbox/customers/${CUSTOMER}/status`, {
      body: { status: "Suspended" },
    });
    expect(status.status).toBe(200);
    await ping();
    expect(receiver.deliveries.length).toBe(before);
  });

  it("a status change delivers an event per step to subscribed webhooks, listed newest first", async () => {
    receiver.answerWith((_, response) => response.writeHead(200).end("ok"));
    await pointWebhook({ url: `${receiver.url}/events`, topics: ["IdentificationStatus"] });
    const before = receiver.deliveries.length;
    const identification = "9c2e7b14-5a3d-4f81-b6e9-0d4c8a2f7e31";
    const changed = await call(
      sandbox.url,
      "POST",
      `/_sandbox/identifications/${identification}/status`,
      { body: { status: "Approved" } },
    );
    expect(changed.body).toMatchObject({ status: "Approved" });
    // The seed's identification is Pending: the walk to Approved takes three steps.
    const walked = (await receiver.waitFor(before + 3)).slice(before);
    expect(walked.map((delivery) => delivery.body.data.status)).toEqual([
      "Processed",
      "PendingReview",
      "Approved",
    ]);
    expect(walked[2]?.body).toMatchObject({
      topic: "IdentificationStatus",
      customer_id: CUSTOMER,
      data: { id: identification, status: "Approved" },
    });
    // An event is recorded once the receiver's answer is in, which can be after it got the call.
    await expect
      .poll(
        async () => {
          const events = await call(sandbox.url, "GET", "/_sandbox/events");
          return events.body.items[0]?.payload.data.status;
        },
        { timeout: 10_000 },
      )
      .toBe("Approved");
    // A topic the webhook does not subscribe to is not delivered.
    await call(sandbox.url, "POST", `/_sandbox/customers/${CUSTOMER}/status`, {
      body: { status: "Suspended" },
    });
    await ping();
    expect(receiver.deliveries.slice(before).map((d) => d.body.topic)).toEqual([
      "IdentificationStatus",
      "IdentificationStatus",
      "IdentificationStatus",
      "Ping",
    ]);
    const events = await call(sandbox.url, "GET", "/_sandbox/events");
    expect(events.body.items.slice(0, 2).map((e: { topic: string }) => e.topic)).toEqual([
      "Ping",
      "IdentificationStatus",
    ]);
    expect(events.body.items[0]).toMatchObject({ delivered: true, status_code: 200, attempt: 1 });
  });
});

describe("a reset while a delivery is under way", () => {
  it("records nothing of it: the log the reset emptied stays empty", async () => {
    const key = "reset-under-way";
    const keyed = { "X-API-Key": key };
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = await startReceiver(async (_, response) => {
      await held;
      response.writeHead(204).end();
    });
    try {
      const added = await call(sandbox.url, "POST", "/_sandbox/webhooks", {
        body: { url: `${slow.url}/hook`, topics: ["CustomerCreated"] },
        headers: keyed,
      });
      expect(added.status).toBe(200);
      const created = await call(sandbox.url, "POST", "/customers", {
        body: { customer_type: "Person", email: "reset-under-way@example.com" },
        headers: { ...newKey(), ...keyed },
      });
      expect(created.status).toBe(200);
      await slow.waitFor(1);
      const reset = await call(sandbox.url, "POST", "/_sandbox/reset", { headers: keyed });
      expect(reset.status).toBe(200);
      release();
      // Answers once the delivery under way is done.
      await call(sandbox.url, "POST", "/_sandbox/clock/advance", {
        body: { seconds: 0 },
        headers: keyed,
      });
      const log = await call(sandbox.url, "GET", "/_sandbox/events", { headers: keyed });
      expect(log.body.items).toEqual([]);
    } finally {
      release();
      await slow.stop();
    }
  });
});

describe("sandbox control routes", () => {
  it("refuses a status outside the spec's enum with a 422 problem naming the values", async () => {
    const answer = await call(sandbox.url, "POST", `/_sandbox/customers/${CUSTOMER}/status`, {
      body: { status: "Gone" },
    });
    expect(answer.status).toBe(422);
    expect(answer.contentType).toBe("application/json");
    expect(answer.body.errors[0]).toMatchObject({ field: "status", rule: "enum" });
    expect(answer.body.detail).toMatch(/UserRequired, SigningsRequired/);
  });

  it("requires X-API-Key", async () => {
    const answer = await call(sandbox.url, "GET", "/_sandbox/events", {
      headers: { "X-API-Key": "" },
    });
    expect(answer.status).toBe(401);
  });

  it("answers 404 for a resource or a route that does not exist", async () => {
    const missing = await call(
      sandbox.url,
      "POST",
      `/_sandbox/autoramps/${crypto.randomUUID()}/status`,
      {
        body: { status: "Approved" },
      },
    );
    expect(missing.status).toBe(404);
    expect((await call(sandbox.url, "GET", "/_sandbox/nothing")).status).toBe(404);
  });
});

describe("hostile control requests", () => {
  it.each([
    [
      "a malformed escape in the id",
      "POST",
      "/_sandbox/customers/%E0%A4%A/status",
      { status: "Active" },
      400,
    ],
    [
      "a body that is not an object",
      "POST",
      `/_sandbox/customers/${CUSTOMER}/status`,
      ["Active"],
      422,
    ],
    ["no body", "POST", `/_sandbox/customers/${CUSTOMER}/status`, undefined, 422],
    ["the wrong method", "GET", "/_sandbox/reset", undefined, 405],
  ])("answers %s with a 4xx problem", async (_, method, path, body, status) => {
    const answer = await call(sandbox.url, method, path, { body });
    expect(answer.status).toBe(status);
    expect(answer.contentType).toBe("application/json");
  });
});
