import { API_KEY, call } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

let sandbox: HttpSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

const scope = () => ({ "X-SUB-PARTNER-ID": crypto.randomUUID() });
const customer = { customer_type: "Business", email: "ops@example.com", name: "Idem GmbH" };

async function listed(headers: Record<string, string>) {
  return (await call(sandbox.url, "GET", "/customers?page_size=100", { headers })).body.items;
}

describe("IDEMPOTENCY-KEY in the sandbox", () => {
  it("replays the first answer exactly to the same request, and creates nothing more", async () => {
    const headers = { ...scope(), "IDEMPOTENCY-KEY": crypto.randomUUID() };
    const first = await call(sandbox.url, "POST", "/customers", { body: customer, headers });
    const again = await call(sandbox.url, "POST", "/customers", {
      body: { name: "Idem GmbH", email: "ops@example.com", customer_type: "Business" },
      headers,
    });
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    expect(await listed(headers)).toEqual([first.body]);
  });

  it("takes a key written in capitals or as a URN as the UUID it names, and replays", async () => {
    const key = crypto.randomUUID();
    const headers = { ...scope(), "IDEMPOTENCY-KEY": key };
    const first = await call(sandbox.url, "POST", "/customers", { body: customer, headers });
    expect(first.status).toBe(200);
    for (const same of [key.toUpperCase(), `urn:uuid:${key}`, `URN:UUID:${key.toUpperCase()}`]) {
      const again = await call(sandbox.url, "POST", "/customers", {
        body: customer,
        headers: { ...headers, "IDEMPOTENCY-KEY": same },
      });
      expect(again, same).toEqual(first);
    }
    expect(await listed(headers)).toEqual([first.body]);
  });

  it("refuses the same key with a different body, saying why", async () => {
    const headers = { ...scope(), "IDEMPOTENCY-KEY": crypto.randomUUID() };
    await call(sandbox.url, "POST", "/customers", { body: customer, headers });
    const other = await call(sandbox.url, "POST", "/customers", {
      body: { ...customer, name: "Other GmbH" },
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.contentType).toBe("application/json");
    expect(other.body.errors[0]).toMatchObject({ field: "IDEMPOTENCY-KEY", rule: "idempotency" });
    expect(other.body.detail).toMatch(/first used for POST \/customers with a different body/);
    expect(await listed(headers)).toHaveLength(1);
  });

  it("refuses the same key on another path, naming both", async () => {
    const headers = { ...scope(), "IDEMPOTENCY-KEY": crypto.randomUUID() };
    const created = await call(sandbox.url, "POST", "/customers", { body: customer, headers });
    const other = await call(sandbox.url, "POST", `/customers/${created.body.id}/identifications`, {
      body: { type: "Direct" },
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.body.detail).toMatch(
      /first used for POST \/customers, not POST \/customers\/.+\/identifications/,
    );
  });

  it("concurrent requests with one key create exactly one resource and all get its answer", async () => {
    const headers = { ...scope(), "IDEMPOTENCY-KEY": crypto.randomUUID() };
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        call(sandbox.url, "POST", "/customers", { body: customer, headers }),
      ),
    );
    expect(new Set(answers.map((answer) => JSON.stringify(answer)))).toHaveLength(1);
    expect(answers[0]?.status).toBe(200);
    expect(await listed(headers)).toHaveLength(1);
  });

  it("replays a 404 too: the key stays bound to its first answer", async () => {
    const headers = { ...scope(), "IDEMPOTENCY-KEY": crypto.randomUUID() };
    const path = `/customers/${crypto.randomUUID()}/signings`;
    const body = { document_id: crypto.randomUUID(), signed: true };
    const first = await call(sandbox.url, "POST", path, { body, headers });
    expect(first.status).toBe(404);
    expect(await call(sandbox.url, "POST", path, { body, headers })).toEqual(first);
  });

  it("marks a replayed answer with Idempotent-Replayed: true, and only a replayed one", async () => {
    const headers = {
      "X-API-Key": API_KEY,
      "Content-Type": "application/json",
      ...scope(),
      "IDEMPOTENCY-KEY": crypto.randomUUID(),
    };
    const post = () =>
      fetch(`${sandbox.url}/customers`, {
        method: "POST",
        headers,
        body: JSON.stringify(customer),
        signal: AbortSignal.timeout(10_000),
      });
    const answers = await Promise.all([post(), post(), post()]);
    const again = await post();
    const marks = [...answers, again].map((answer) => answer.headers.get("idempotent-replayed"));
    // One request did the work; each of the others got its answer again, and says so.
    expect(marks.filter((mark) => mark === null)).toHaveLength(1);
    expect(marks.filter((mark) => mark === "true")).toHaveLength(3);
    const ids = [...answers, again].map((answer) => answer.headers.get("x-request-id"));
    expect(new Set(ids).size).toBe(4);
    const bodies = await Promise.all([...answers, again].map((answer) => answer.text()));
    expect(new Set(bodies).size).toBe(1);
  });

  it("marks a replayed error answer too, and never a request without a key", async () => {
    const headers = {
      "X-API-Key": API_KEY,
      "Content-Type": "application/json",
      "IDEMPOTENCY-KEY": crypto.randomUUID(),
    };
    const path = `${sandbox.url}/customers/${crypto.randomUUID()}/signings`;
    const body = JSON.stringify({ document_id: crypto.randomUUID(), signed: true });
    const post = (sent: Record<string, string>) =>
      fetch(path, { method: "POST", headers: sent, body, signal: AbortSignal.timeout(10_000) });
    const first = await post(headers);
    const again = await post(headers);
    expect([first.status, again.status]).toEqual([404, 404]);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const listed = await fetch(`${sandbox.url}/customers`, {
      headers: { "X-API-Key": API_KEY },
      signal: AbortSignal.timeout(10_000),
    });
    expect(listed.headers.get("idempotent-replayed")).toBeNull();
  });
});
