// Every change shows in the next read, however it was made: a create, a simulation, a job the
// clock ran, a reset. Reads answered from memory (read-cache.ts) must never lag a change.

import { call, createCustomer } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

let sandbox: HttpSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const LIST = "/customers?page_size=100";

async function listed(): Promise<Array<{ id: string; status: string }>> {
  const answer = await call(sandbox.url, "GET", LIST);
  expect(answer.status).toBe(200);
  return answer.body.items;
}

const statusOf = async (id: string) => (await listed()).find((item) => item.id === id)?.status;

describe("reads after writes", () => {
  it("shows a create, a status set, a clock-run job and a reset in the next read", async () => {
    const before = await listed();
    // The same read twice: the second may come from memory.
    expect(await listed()).toEqual(before);

    const customer = await createCustomer(sandbox.url);
    expect((await listed()).map((item) => item.id)).toContain(customer.id);

    const set = await call(sandbox.url, "POST", `/_sandbox/customers/${customer.id}/status`, {
      body: { status: "Active", force: true },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(await statusOf(customer.id)).toBe("Active");

    const other = await createCustomer(sandbox.url);
    const unsigned = await call(sandbox.url, "GET", `/customers/${other.id}/unsigned-documents`);
    for (const document of unsigned.body.items) {
      const signed = await call(sandbox.url, "POST", `/customers/${other.id}/signings`, {
        body: { document_id: document.id, signed: true },
        headers: { "IDEMPOTENCY-KEY": crypto.randomUUID() },
      });
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    }
    // Read again: no document is left to sign.
    const left = await call(sandbox.url, "GET", `/customers/${other.id}/unsigned-documents`);
    expect(left.body.items).toEqual([]);
    const started = await call(sandbox.url, "POST", `/customers/${other.id}/identifications`, {
      body: { type: "Direct" },
      headers: { "IDEMPOTENCY-KEY": crypto.randomUUID() },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(await statusOf(other.id)).toBe("IdentificationRequired");
    // A day on the clock runs the identification's review, whose approval makes its customer Active.
    const advanced = await call(sandbox.url, "POST", "/_sandbox/clock/advance", {
      body: { seconds: 86_400 },
    });
    expect(advanced.status).toBe(200);
    expect(advanced.body.ran).toBeGreaterThan(0);
    expect(await statusOf(other.id)).toBe("Active");

    const reset = await call(sandbox.url, "POST", "/_sandbox/reset");
    expect(reset.status).toBe(200);
    expect((await listed()).map((item) => item.id)).not.toContain(customer.id);
  });
});
