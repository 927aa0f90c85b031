// The sandbox answers a request that sends a deprecated field with `Deprecation` (RFC 9745), and
// one that does not with neither it nor `Sunset`: the API description gives the field no sunset
// date, so no `Sunset` either way.
import { API_KEY, createCustomer, newKey } from "@org/payments-testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

let sandbox: HttpSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox?.stop());

async function createAutoramp(fields: Record<string, unknown>) {
  const customer = await createCustomer(sandbox.server.url);
  const answer = await fetch(`${sandbox.server.url}/autoramps`, {
    method: "POST",
    headers: { "X-API-Key": API_KEY, "Content-Type": "application/json", ...newKey() },
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

it("marks the answer to a request sending the deprecated `additional_partner_fee_in_bips`", async () => {
  const answer = await createAutoramp({ additional_partner_fee_in_bips: "10" });
  expect(answer.status).toBe(200);
  expect(answer.headers.get("deprecation")).toBe("@0");
  expect(answer.headers.get("sunset")).toBeNull();
});

it("sends no deprecation headers when nothing deprecated is sent", async () => {
  const answer = await createAutoramp({});
  expect(answer.status).toBe(200);
  expect(answer.headers.get("deprecation")).toBeNull();
  expect(answer.headers.get("sunset")).toBeNull();
});
