// A request that sends a deprecated field is answered with `Deprecation` (RFC 9745), one that does
// not with neither it nor `Sunset` (the API description gives the field no sunset date, so no
// `Sunset` either way); the partner's readiness check "uses nothing deprecated" names what it
// used, and another key's report knows nothing of it.
import { createCustomer, newKey, readinessOf } from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxPartner } from "../../src/index.js";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

let sandbox: HttpSandbox;
let a: SandboxPartner;
let b: SandboxPartner;
beforeAll(async () => {
  sandbox = await startSandbox();
  a = sandbox.server.newPartner();
  b = sandbox.server.newPartner();
});
afterAll(() => sandbox?.stop());

async function createAutoramp(partner: SandboxPartner, fields: Record<string, unknown>) {
  const key = { "X-API-Key": partner.apiKey };
  const customer = await createCustomer(partner.url, {}, key);
  const answer = await fetch(`${partner.url}/autoramps`, {
    method: "POST",
    headers: { ...key, "Content-Type": "application/json", ...newKey() },
    body: JSON.stringify({
      customer_id: customer.id,
      destination_currency: { blockchain: "Polygon", token: "USDC" },
      recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
      source_currencies: [{ code: "EUR", type: "Fiat" }],
      ...fields,
    }),
    signal: AbortSignal.timeout(10_000),
  });
  await answer.arrayBuffer();
  return answer;
}

const checkOf = async (partner: SandboxPartner) =>
  (await readinessOf(partner)).checks.find((check: { id: string }) => check.id === "no-deprecated");

describe("deprecations in the sandbox", () => {
  it("marks the answer to a request sending the deprecated additional_partner_fee_in_bips", async () => {
    const answer = await createAutoramp(a, { additional_partner_fee_in_bips: "10" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("deprecation")).toBe("@0");
    expect(answer.headers.get("sunset")).toBeNull();
  });

  it("sends no deprecation headers when nothing deprecated is sent", async () => {
    const answer = await createAutoramp(b, {});
    expect(answer.status).toBe(200);
    expect(answer.headers.get("deprecation")).toBeNull();
    expect(answer.headers.get("sunset")).toBeNull();
  });

  it("fails A's readiness check, naming the field, the operation and the replacement", async () => {
    const check = await checkOf(a);
    expect(check).toMatchObject({ title: "Uses nothing deprecated", status: "failed" });
    expect(check.detail).toBe(
      "deprecated and still used: field `additional_partner_fee_in_bips` of createAutoramp (1 request; no sunset date given; use the partner's fee configs (see fee profiles) instead).",
    );
  });

  it("passes B's, which used nothing deprecated, and leaves a new key's not run", async () => {
    expect(await checkOf(b)).toMatchObject({ status: "passed", detail: "nothing deprecated used" });
    expect(await checkOf(sandbox.server.newPartner())).toMatchObject({ status: "not_run" });
  });
});
