// The readiness report of a sandbox shared through Postgres: requests and deliveries made through
// two processes on one database are each counted once, and either process answers the same
// report once their counts are written (each process writes its counts within COUNT_AFTER_MS).
import { call, createDatabase, startReceiver } from "@org/payments-testing";
import { describe, expect, inject, it } from "vitest";
import { runCli } from "../support/run-cli.js";

const KEY = `readiness-replicas-${crypto.randomUUID()}`;
/** Longer than the sandboxes' batch of counts (100 ms). */
const WRITTEN_MS = 400;

const as = (url: string, method: string, path: string, body?: unknown) =>
  call(url, method, path, {
    ...(body !== undefined && { body }),
    headers: {
      "X-API-Key": KEY,
      ...(method === "POST" && { "IDEMPOTENCY-KEY": crypto.randomUUID() }),
    },
  });

describe("readiness on replicas of one Postgres", () => {
  it("counts each request and delivery once, and either replica answers the same report", async (context) => {
    const receiver = await startReceiver();
    context.onTestFinished(() => receiver.stop());
    const state = await createDatabase(inject("postgresUrl"));
    const start = () => runCli(context, ["--port", "0", "--quiet", "--stateful", "--state", state]);
    const replicas = [start(), start()];
    const urls = await Promise.all(replicas.map((replica) => replica.url));
    const [first = "", second = ""] = urls;
    const webhook = await as(first, "POST", "/_sandbox/webhooks", {
      url: `${receiver.url}/hook`,
      topics: ["CustomerCreated"],
    });
    expect(webhook.status).toBe(200);
    for (let index = 0; index < 10; index++) {
      const url = urls[index % 2] as string;
      const created = await as(url, "POST", "/customers", {
        customer_type: "Person",
        email: `replica${index}@example.com`,
      });
      expect(created.status).toBe(200);
      expect((await as(url, "GET", "/customers?page_size=1")).status).toBe(200);
    }
    await receiver.waitFor(10);
    await new Promise((resolve) => setTimeout(resolve, WRITTEN_MS));
    const [fromFirst, fromSecond] = await Promise.all(
      [first, second].map(async (url) => (await as(url, "GET", "/_sandbox/readiness")).body),
    );
    expect(fromFirst).toEqual(fromSecond);
    expect(fromFirst.coverage.operations.createCustomer).toEqual({
      calls: 10,
      statuses: { "200": 10 },
    });
    expect(fromFirst.coverage.operations.listCustomers).toEqual({
      calls: 10,
      statuses: { "200": 10 },
    });
    expect(fromFirst.coverage.topics.CustomerCreated).toMatchObject({
      subscribed: true,
      delivered: 10,
      acknowledged: 10,
      failing: 0,
    });
    expect(receiver.deliveries).toHaveLength(10);
  }, 120_000);
});
