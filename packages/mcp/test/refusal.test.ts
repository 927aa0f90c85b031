// Against a server that is not a sandbox: writes are refused unless --allow-writes, with no write
// reaching it (the one request it sees is the sandbox probe, GET /_sandbox/openapi.json); the
// test mode's tools are not listed; with --allow-writes, every write carries an IDEMPOTENCY-KEY
// and a retried call the same one.
import { listOperations, loadSpec } from "@org/payments-spec";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RecordedRequest, startPlainServer } from "./support/servers.js";
import { allTextOf, SECRET_KEY, type Session, startSession, textOf } from "./support/session.js";

const apiOperations = listOperations(loadSpec()).map((op) => op.operationId);
const customer = { customer_type: "Person", email: "ada@example.com" };
const webhookId = "f3a7c1e5-9b4d-4f2a-8c6e-1a3b5d7f9e02";

let plain: Awaited<ReturnType<typeof startPlainServer>>;
let session: Session | undefined;

beforeEach(async () => {
  plain = await startPlainServer();
});

afterEach(async () => {
  await session?.close();
  session = undefined;
  await plain.stop();
});

const writes = (requests: RecordedRequest[]) => requests.filter((r) => r.method !== "GET");

describe("a server that is not a sandbox", () => {
  it("gets no write: the refusal names --allow-writes, and only the probe reaches it", async () => {
    session = await startSession(plain.url);
    const tools = (await session.tools()).map((tool) => tool.name);
    expect(tools.sort()).toEqual([...apiOperations].sort());

    const created = await session.call("createCustomer", customer);
    expect(created.isError).toBe(true);
    expect(textOf(created)).toContain("start payments-mcp with --allow-writes");
    expect(textOf(created)).toContain(`${plain.url} is not a sandbox`);
    const patched = await session.call("updateWebhook", { id: webhookId, enabled: false });
    expect(textOf(patched)).toContain("--allow-writes");
    const pinged = await session.call("pingWebhook", { id: webhookId, customer_id: webhookId });
    expect(pinged.isError).toBe(true);
    const clock = await session.call("advanceClock", { seconds: 60 });
    expect(textOf(clock)).toContain("a test-mode operation, which only a sandbox has");

    expect(writes(plain.requests)).toEqual([]);
    expect(plain.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /_sandbox/openapi.json",
    ]);
    expect(plain.requests[0]?.headers["x-api-key"]).toBe(SECRET_KEY);
  });

  it.each([
    ["html", "is not a sandbox: it answered GET /_sandbox/openapi.json with no JSON"],
    // Not an answer, so an open question (as a server that never answers is, after the probe's
    // timeout: test/sandbox-probe.test.ts).
    ["hang-up", "could not tell whether"],
    [
      "impostor",
      'with an OpenAPI document that is not the sandbox\'s test mode ("Something else", where the sandbox\'s is "Partner Payments API test mode" with x-payments-sandbox',
    ],
    ["json", "with JSON that is not an OpenAPI document"],
  ] as const)("refuses writes to a server answering the probe %s", async (kind, said) => {
    const other = await startPlainServer(kind);
    try {
      session = await startSession(other.url);
      const created = await session.call("createCustomer", customer);
      expect(created.isError).toBe(true);
      expect(textOf(created)).toContain(said);
      expect(textOf(created)).toContain("--allow-writes");
      expect(writes(other.requests)).toEqual([]);
    } finally {
      await session?.close();
      session = undefined;
      await other.stop();
    }
  });

  it("takes the key out of an error that quotes it", async () => {
    const echo = await startPlainServer("echo");
    try {
      session = await startSession(echo.url);
      const listed = await session.call("listCustomers", {});
      expect(listed.isError).toBe(true);
      expect(textOf(listed)).toContain("no key [redacted]");
      for (const message of session.received) expect(message).not.toContain(SECRET_KEY);
    } finally {
      await session?.close();
      session = undefined;
      await echo.stop();
    }
  });

  it("answers reads, and says what the API answered to one that failed", async () => {
    session = await startSession(plain.url);
    const listed = await session.call("listCustomers", { page_size: 5 });
    expect(listed.isError).toBe(true);
    expect(textOf(listed)).toContain("listCustomers failed with HTTP 404");
    const read = plain.requests.find((r) => r.path.startsWith("/customers"));
    expect(read?.path).toBe("/customers?page_size=5");
  });

  it("sends PAYMENTS_SUB_PARTNER_ID on the operations that take X-SUB-PARTNER-ID", async () => {
    const subPartner = "5a9d2e71-3c4b-4f6a-8d1e-2b7c9f0a3e58";
    session = await startSession(plain.url, { env: { PAYMENTS_SUB_PARTNER_ID: subPartner } });
    await session.call("listCustomers", {});
    await session.call("listDocuments", {});
    const other = "0e2f4a6c-8b1d-4f3a-9c5e-7a9b1c3d5e70";
    await session.call("listFeeProfiles", { sub_partner_id: other });
    const sent = (prefix: string) =>
      plain.requests.find((r) => r.path.startsWith(prefix))?.headers["x-sub-partner-id"];
    expect(sent("/customers")).toBe(subPartner);
    expect(sent("/documents")).toBeUndefined();
    expect(sent("/fee-profiles")).toBe(other);
  });

  it("takes writes with --allow-writes, each with an IDEMPOTENCY-KEY that a retry reuses", async () => {
    session = await startSession(plain.url, { args: ["--allow-writes"] });
    const first = await session.call("createCustomer", customer);
    expect(first.isError).toBeFalsy();
    const again = await session.call("createCustomer", { ...customer });
    expect(allTextOf(again)).toContain("(reused");
    await session.call("updateWebhook", { id: webhookId, label: "renamed" });
    const sent = writes(plain.requests);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /customers",
      "POST /customers",
      `PATCH /webhooks/${webhookId}`,
    ]);
    const keys = sent.map((r) => r.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[2]).not.toBe(keys[0]);
    expect(JSON.parse(sent[2]?.body ?? "")).toEqual({ label: "renamed" });
    for (const message of session.received) expect(message).not.toContain(SECRET_KEY);
    expect(session.stderr()).not.toContain(SECRET_KEY);
  });
});
