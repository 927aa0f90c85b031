// GET /_sandbox/health: 200 with the version, the store's kind and the uptime once the store
// answers and the scheduler runs, 503 (with Retry-After) while either does not; no key needed, and
// asking makes no partner.
import { call } from "@org/payments-testing";
import { expect, inject, it } from "vitest";
import { type HealthSources, healthAnswer } from "../../src/health/index.js";
import { startSandbox } from "../support/sandbox.js";

it("answers 200 without a key, with the version, the store's kind and the uptime, making no partner", async () => {
  // Room for one partner: had the health check made one, the key after it would be refused.
  const sandbox = await startSandbox({ maxPartners: 1, version: "9.8.7" });
  try {
    for (const headers of [{ "X-API-Key": "" }, { "X-API-Key": "health-asker" }]) {
      const health = await call(sandbox.url, "GET", "/_sandbox/health", { headers });
      expect(health.status).toBe(200);
      expect(health.body).toEqual({
        status: "ready",
        version: "9.8.7",
        // The in-page sandbox's store holds its data in memory, as the document's kinds say.
        store: inject("sandboxStore") === "javascript" ? "memory" : inject("sandboxStore"),
        uptime_seconds: expect.any(Number),
      });
    }
    const created = await call(sandbox.url, "POST", "/customers", {
      body: { customer_type: "Person", email: "someone@example.com" },
      headers: { "X-API-Key": "health-partner", "IDEMPOTENCY-KEY": crypto.randomUUID() },
    });
    expect(created.status).toBe(200);
  } finally {
    await sandbox.stop();
  }
});

const sources = (overrides: Partial<HealthSources>): HealthSources => ({
  version: "1.0.0",
  storeKind: "postgres",
  startedAt: Date.now() - 5_000,
  store: { transaction: (_partner, work) => work({ lastCursor: async () => 0 }) },
  probePartner: "example",
  scheduler: { running: true },
  ...overrides,
});

it("answers 503 with the reason while the store does not answer or the scheduler has stopped", async () => {
  const ready = await healthAnswer(sources({}));
  expect(ready.status).toBe(200);
  expect(ready.body).toMatchObject({ uptime_seconds: 5, store: "postgres" });

  const lost = await healthAnswer(
    sources({ store: { transaction: () => Promise.reject(new Error("connection refused")) } }),
  );
  expect(lost.status).toBe(503);
  expect(lost.headers).toEqual({ "retry-after": "1" });
  expect(JSON.stringify(lost.body)).toContain(
    "the postgres store does not answer (connection refused)",
  );

  const stopping = await healthAnswer(sources({ scheduler: { running: false } }));
  expect(stopping.status).toBe(503);
  expect(JSON.stringify(stopping.body)).toContain("the scheduler is not running");
});
