// payments-mock listen on a sandbox shared through Postgres: listening to one replica, it forwards
// the events committed through the other as well, each once, in the order they committed.
import { call, createDatabase, startReceiver } from "@org/payments-testing";
import { describe, expect, inject, it } from "vitest";
import { runCli } from "../support/run-cli.js";

const KEY = `listen-replicas-${crypto.randomUUID()}`;

describe("listen on replicas of one Postgres", () => {
  it("forwards the events committed through any replica, once each, in commit order", async (context) => {
    const receiver = await startReceiver();
    context.onTestFinished(() => receiver.stop());
    const state = await createDatabase(inject("postgresUrl"));
    const start = () => runCli(context, ["--port", "0", "--quiet", "--stateful", "--state", state]);
    const [first = "", second = ""] = await Promise.all([start().url, start().url]);
    const listen = runCli(
      context,
      [
        "listen",
        "--url",
        first,
        "--forward-to",
        `${receiver.url}/hooks`,
        "--events",
        "CustomerCreated",
      ],
      { PAYMENTS_API_KEY: KEY },
    );
    for (let tries = 0; tries < 400 && !listen.output().stdout.includes("Ready"); tries++) {
      await new Promise((wake) => setTimeout(wake, 50));
    }
    expect(listen.output().stdout).toContain("Ready");
    const created: string[] = [];
    for (let index = 0; index < 10; index++) {
      const answer = await call(index % 2 === 0 ? second : first, "POST", "/customers", {
        body: { customer_type: "Person", email: `replica${index}@example.com` },
        headers: { "X-API-Key": KEY, "IDEMPOTENCY-KEY": crypto.randomUUID() },
      });
      expect(answer.status).toBe(200);
      created.push(answer.body.id);
    }
    for (let tries = 0; tries < 400 && receiver.deliveries.length < 10; tries++) {
      await new Promise((wake) => setTimeout(wake, 50));
    }
    await new Promise((wake) => setTimeout(wake, 300));
    // One after another, so commit order is the order they were made.
    expect(receiver.deliveries.map((request) => request.body.data.id)).toEqual(created);
    expect(JSON.stringify(listen.output())).not.toContain(KEY);
  }, 60_000);
});
