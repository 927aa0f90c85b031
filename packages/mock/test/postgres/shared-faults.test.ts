// Failure rehearsal on a sandbox two built CLIs share through one Postgres database: a rule armed
// through one process applies `times` times in all, whichever process the requests reach; a rule
// disarmed or a limit set through one holds in the other at once; and the request log holds the
// requests of both.
import { randomUUID } from "node:crypto";
import { call, createDatabase } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { fileScope, runCli } from "../support/run-cli.js";

// One pair of processes for the file: each test is a partner of its own (its own key).
const scope = fileScope();
afterAll(scope.stop);
let a: string;
let b: string;
beforeAll(async () => {
  const state = await createDatabase(inject("postgresUrl"));
  const start = () => runCli(scope, ["--port", "0", "--quiet", "--stateful", "--state", state]);
  const first = start();
  const second = start();
  [a, b] = [await first.url, await second.url];
});

describe("failure rehearsal on a sandbox two processes share", () => {
  it("applies a rule armed through one process `times` times in all, across both", async () => {
    const key = { "X-API-Key": `shared-faults-${randomUUID()}` };
    const armed = await call(a, "POST", "/_sandbox/faults", {
      body: { operation_id: "listFeeProfiles", status: 503, times: 5 },
      headers: key,
    });
    expect(armed.status).toBe(201);
    // 20 requests at once, half to each process: exactly 5 get the fault.
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        call(index % 2 === 0 ? a : b, "GET", "/fee-profiles", { headers: key }).then(
          (answer) => answer.status,
        ),
      ),
    );
    expect(statuses.filter((status) => status === 503)).toHaveLength(5);
    expect(statuses.filter((status) => status === 200)).toHaveLength(15);
    expect((await call(b, "GET", "/_sandbox/faults", { headers: key })).body.items).toEqual([]);
    // Both processes' requests reach the log (each writes its own within a moment).
    let logged: unknown[] = [];
    for (let tries = 0; tries < 100 && logged.length < 20; tries++) {
      logged = (
        await call(a, "GET", "/_sandbox/requests?operation_id=listFeeProfiles&page_size=100", {
          headers: key,
        })
      ).body.items;
      if (logged.length < 20) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(logged).toHaveLength(20);
    expect(
      logged.filter((entry) => (entry as { fault_id: string }).fault_id === armed.body.id),
    ).toHaveLength(5);
  });

  it("holds a disarm and a rate limit set through one process in the other", async () => {
    const key = { "X-API-Key": `shared-limit-${randomUUID()}` };
    // The other process knows the partner (and its rules) before they change.
    expect((await call(b, "GET", "/fee-profiles", { headers: key })).status).toBe(200);
    const armed = await call(a, "POST", "/_sandbox/faults", {
      body: { operation_id: "listFeeProfiles", status: 500, times: 100 },
      headers: key,
    });
    expect((await call(b, "GET", "/fee-profiles", { headers: key })).status).toBe(500);
    await call(a, "DELETE", `/_sandbox/faults/${armed.body.id}`, { headers: key });
    expect((await call(b, "GET", "/fee-profiles", { headers: key })).status).toBe(200);
    await call(a, "PUT", "/_sandbox/rate-limit", {
      body: { requests_per_second: 1, burst: 2 },
      headers: key,
    });
    // One bucket for both: of six requests at once, the burst of two goes through (and one more
    // for each second the machine took to send them), not two to each process.
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        call(index % 2 === 0 ? a : b, "GET", "/fee-profiles", { headers: key }).then(
          (answer) => answer.status,
        ),
      ),
    );
    const seconds = Math.floor((performance.now() - started) / 1000);
    const through = statuses.filter((status) => status === 200).length;
    expect(through).toBeGreaterThanOrEqual(2);
    expect(through).toBeLessThanOrEqual(2 + seconds);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6 - through);
  });
});
