// The built server under the SDK's own MCP client over stdio, against a sandbox started here: the
// tools it lists, the walk an assistant would take (a customer onboarded to Active on the sandbox
// clock, an autoramp funded, the settled transaction and its events read), every operation of
// both documents called and each answer checked against its tool's output schema, bad
// arguments, idempotent retries, and the API key in nothing the server says.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createPaymentsClient } from "@org/payments-client";
import {
  answersStream,
  listOperations,
  loadBundledSpec,
  loadSpec,
  testModeSpecPath,
} from "@org/payments-spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_PAGES_MAX_CHARACTERS } from "../src/limits.ts";
import { exampleArguments, type KnownIds } from "./support/examples.js";
import { type RunningServer, startSandbox } from "./support/servers.js";
import { allTextOf, SECRET_KEY, type Session, startSession, textOf } from "./support/session.js";

const api = loadSpec();
const testMode = loadBundledSpec(testModeSpecPath);
const apiOperations = listOperations(api).map((op) => op.operationId);
// A streamed answer (the event stream) is no tool: a tool call waits for a whole answer.
const testModeOperations = listOperations(testMode)
  .filter((op) => !answersStream(testMode, op))
  .map((op) => op.operationId);

let sandbox: RunningServer;
let session: Session;
let receiver: ReturnType<typeof createServer>;
let receiverUrl = "";
const delivered: string[] = [];
/** Every operation called with success, by name. */
const called = new Set<string>();

const ok = async (name: string, args: Record<string, unknown> = {}) => {
  const content = await session.ok(name, args);
  called.add(name);
  return content;
};

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.on("data", (chunk: Buffer) => delivered.push(chunk.toString()));
    request.on("end", () => response.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;
  sandbox = await startSandbox();
  session = await startSession(sandbox.url, { args: ["--toolsets", "all"] });
});

afterAll(async () => {
  await session?.close();
  await sandbox?.stop();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
});

describe("tools/list with --toolsets all", () => {
  it("lists one tool per operation of the API and of the test mode, by operationId", async () => {
    const names = (await session.tools()).map((tool) => tool.name);
    expect(names.sort()).toEqual([...apiOperations, ...testModeOperations].sort());
  });

  it("marks GETs read-only, PATCHes idempotent, POSTs not destructive but the reset", async () => {
    for (const tool of await session.tools()) {
      const read = listOperations(api)
        .concat(listOperations(testMode))
        .find((op) => op.operationId === tool.name)?.method;
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(read === "get");
      if (read === "patch") expect(tool.annotations?.idempotentHint).toBe(true);
      if (read === "post") {
        expect(tool.annotations?.destructiveHint, tool.name).toBe(
          tool.name === "resetSandbox" ? undefined : false,
        );
      }
      expect(tool.inputSchema.type, tool.name).toBe("object");
    }
  });
});

describe("the walk of an assistant", () => {
  const state: KnownIds = {};

  it("onboards a customer to Active on the sandbox clock", async () => {
    const customer = await ok("createCustomer", {
      customer_type: "Person",
      email: "ada.onboarding@example.com",
      name: "Ada Lovelace",
    });
    expect(customer.status).toBe("SigningsRequired");
    state.customer_id = customer.id;
    const unsigned = await ok("listUnsignedDocuments", { id: customer.id });
    const documents = unsigned.items as { id: string }[];
    expect(documents.length).toBeGreaterThan(0);
    for (const document of documents) {
      await ok("createSigning", { id: customer.id, document_id: document.id, signed: true });
    }
    const identification = await ok("createDirectIdentification", {
      id: customer.id,
      type: "Direct",
    });
    expect(identification.status).toBe("Pending");
    state.identification_id = identification.id;
    const moved = await ok("advanceClock", { seconds: 600 });
    expect(moved.ran).toBeGreaterThan(0);
    const found = await ok("listCustomers", { search_term: "ada.onboarding@example.com" });
    const items = found.items as { id: string; status: string }[];
    expect(items.find((item) => item.id === customer.id)?.status).toBe("Active");
  });

  it("funds an autoramp, and reads the settled transaction and its events", async () => {
    const webhook = await ok("addWebhook", {
      url: receiverUrl,
      topics: ["Transaction", "TransactionStatus"],
      label: "assistant",
    });
    state.webhook_id = webhook.id;
    const autoramp = await ok("createAutoramp", {
      customer_id: state.customer_id,
      destination_currency: { blockchain: "Polygon", token: "USDC" },
      recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
      source_currencies: [{ code: "EUR", type: "Fiat" }],
      external_id: "assistant-ramp-1",
    });
    expect(autoramp.status).toBe("Approved");
    state.autoramp_id = autoramp.id;
    const deposit = await ok("simulateDeposit", { id: autoramp.id, amount: "1000.00" });
    await ok("advanceClock", { seconds: 3600 });
    const transactions = await ok("listAutorampTransactions", { autoramp_id: autoramp.id });
    const transaction = (transactions.items as { id: string; status: string }[]).find(
      (item) => item.id === deposit.id,
    );
    expect(transaction?.status).toBe("Completed");
    state.transaction_id = deposit.id;
    const byIds = await ok("listAutorampTransactionsByIds", { ids: [deposit.id] });
    expect((byIds.items as { state: string }[])[0]?.state).toBe("Completed");
    const events = await ok("listEvents", { customer_id: state.customer_id, all_pages: true });
    const mine = (events.items as { payload: { data: { id?: string } }; topic: string }[]).filter(
      (event) => event.payload.data.id === deposit.id,
    );
    expect(mine.map((event) => event.topic)).toContain("Transaction");
    expect(mine.filter((event) => event.topic === "TransactionStatus").length).toBeGreaterThan(0);
    expect(delivered.some((body) => body.includes(String(deposit.id)))).toBe(true);
  });

  it("calls every other operation once, each answer fitting its tool's output schema", async () => {
    const fiat = await ok("addFiatAddress", {
      id: state.customer_id,
      iban: "DE89 3704 0044 0532 0130 00",
    });
    await ok("advanceClock", { seconds: 600 });
    const quote = await ok("getAutorampQuote", {
      customer_id: state.customer_id,
      source_currency_code: "EUR",
      destination_currency_code: "USDC",
      destination_currency_chain: "Polygon",
      recipient_account: "0x4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c",
      amount_in: "250.00",
      rate_expiry_policy: "Return",
      rate_lock_duration_minutes: 30,
      expiry_in_hours: 1,
      is_third_party: false,
    });
    const events = (await ok("listEvents")).items as { id: string }[];
    // A rule of its own to disarm (the example's id is no rule's), on nothing the walk calls.
    const fault = await ok("armFault", { topic: "Ping", delay_seconds: 1 });
    const known: KnownIds = {
      ...state,
      id: state.customer_id,
      fiat_address_id: fiat.id,
      external_id: "assistant-ramp-1",
      ids: [state.transaction_id],
      "setIdentificationStatus.id": state.identification_id,
      "setAutorampStatus.id": state.autoramp_id,
      "setFiatAddressStatus.id": fiat.id,
      "setAutorampTransactionStatus.id": state.transaction_id,
      "simulateDeposit.id": state.autoramp_id,
      "updateWebhook.id": state.webhook_id,
      "pingWebhook.id": state.webhook_id,
      "redeliverEvent.id": events[0]?.id,
      "disarmFault.id": fault.id,
      "verifyQuote.body": quote,
    };
    const rest = [...apiOperations, ...testModeOperations].filter(
      (name) => !called.has(name) && name !== "resetSandbox",
    );
    for (const name of rest) {
      const doc = apiOperations.includes(name) ? api : testMode;
      await ok(name, exampleArguments(doc, name, known));
    }
    const verdict = await ok("verifyQuote", { body: quote });
    expect(verdict.valid).toBe(true);
    await ok("resetSandbox");
    expect([...called].sort()).toEqual([...apiOperations, ...testModeOperations].sort());
  });
});

describe("bad arguments", () => {
  it("are a tool error naming each field and its rule, and the server goes on", async () => {
    const result = await session.call("createCustomer", { customer_type: "Robot", page: 1 });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('`customer_type` must be one of "Business", "Person"');
    expect(text).toContain("`email` is required");
    expect(text).toContain("`page` is not an argument of this tool");
    const listed = await session.call("listCustomers", { page_size: 1000 });
    expect(textOf(listed)).toContain("`page_size` must be <= 100");
    const nested = await session.call("createAutoramp", {
      customer_id: "not-a-uuid",
      destination_currency: { blockchain: "Moon", token: "USDC" },
      recipient_account: { type: "Fiat" },
      source_currencies: [{ code: "EUR", type: "Fiat" }],
      wire_message: "a line far longer than the thirty-five characters a wire line may hold",
    });
    expect(textOf(nested)).toContain("`customer_id` must be a UUID");
    expect(textOf(nested)).toContain("`destination_currency.blockchain` must be one of");
    expect(textOf(nested)).toContain("`wire_message` must match the pattern");
    expect((await session.tools()).length).toBeGreaterThan(0);
  });

  it("refuse `__proto__`, `constructor` and `prototype` as they refuse any unknown argument", async () => {
    // Parsed from JSON, as a client's message is: `__proto__` is a key of its own, not the prototype.
    for (const key of ["__proto__", "constructor", "prototype"]) {
      const args = JSON.parse(`{"search_term":"a","${key}":{"page_size":1}}`);
      const result = await session.call("listCustomers", args);
      expect(result.isError, key).toBe(true);
      expect(textOf(result)).toContain(
        `listCustomers was not called: \`${key}\` is not an argument of this tool (its arguments: `,
      );
    }
    const write = await session.call(
      "createCustomer",
      JSON.parse('{"customer_type":"Person","email":"proto@example.com","__proto__":{"a":1}}'),
    );
    expect(textOf(write)).toContain("`__proto__` is not an argument of this tool");
  });

  it("refuse a path segment the URL would move and text a URL cannot carry, naming the field", async () => {
    // Sent, `..` would reach GET /external, and `.` POST /_sandbox/customers/status.
    const up = await session.call("getAutorampByExternalId", { external_id: ".." });
    expect(textOf(up)).toContain(
      "`external_id` must not be `..`: it is a segment of the path /autoramps/{external_id}/external",
    );
    const here = await session.call("setCustomerStatus", { id: ".", status: "Active" });
    expect(textOf(here)).toContain("`id` must not be `.`");
    // A lone surrogate was "could not reach the API: URI malformed".
    const half = await session.call("listCustomers", { search_term: "ab\ud800" });
    expect(half.isError).toBe(true);
    expect(textOf(half)).toContain("`search_term` must be well-formed Unicode");
  });

  it("name both fields of a choice: advanceClock takes one of seconds or to", async () => {
    const listed = (await session.tools()).find((tool) => tool.name === "advanceClock");
    expect(JSON.stringify(listed?.inputSchema.oneOf)).toContain('"required":["seconds"]');
    const none = await session.call("advanceClock", {});
    expect(none.isError).toBe(true);
    expect(textOf(none)).toBe("advanceClock was not called: give one of `seconds` or `to`.");
    const both = await session.call("advanceClock", { seconds: 1, to: "2999-01-01T00:00:00Z" });
    expect(textOf(both)).toContain("give only one of `seconds` or `to`");
    const deposit = await session.call("simulateDeposit", {
      id: "d2a6f8c1-4b9e-4d7a-a3c5-8e1f6b2d9c47",
      amount: "1.00",
      currency: "EUR",
      source_currency: "EUR",
    });
    expect(textOf(deposit)).toContain("`currency` and `source_currency` cannot be given together");
    const moved = await session.call("advanceClock", { seconds: 0 });
    expect(moved.isError).toBeFalsy();
    // The sandbox's routes take no idempotency key, and its answers name none.
    expect(allTextOf(moved)).not.toContain("IDEMPOTENCY-KEY");
  });

  it("survive hostile input: deep nesting, huge strings, wrong types everywhere", async () => {
    let deep: unknown = "bottom";
    // As deep as the SDK's client can still serialise (it recurses), far past any request's depth.
    for (let level = 0; level < 1_000; level++) deep = [deep];
    const refused: [string, Record<string, unknown>, string][] = [
      ["createCustomer", { customer_type: "Person", email: "x@example.com", name: deep }, "deeper"],
      ["createCustomer", { customer_type: ["Person"], email: { at: "x" } }, "`customer_type`"],
      ["createCustomer", { customer_type: null, email: 42 }, "`email` must be a string"],
      ["verifyQuote", { body: { signature: "s", extra: deep } }, "deeper than 64 levels"],
    ];
    for (const [name, args, said] of refused) {
      const result = await session.call(name, args);
      expect(result.isError, name).toBe(true);
      expect(textOf(result)).toContain(said);
    }
    // A long string the schema allows goes to the API, which answers it.
    const long = await session.call("listCustomers", { search_term: "x".repeat(1_000_000) });
    expect(textOf(long)).toContain("`search_term` must be at most 256 characters long");
    const huge = await session.call("createCustomer", {
      customer_type: "Person",
      email: "y".repeat(2_000_000),
    });
    expect(huge.content.length).toBeGreaterThan(0);
    const path = await session.call("getAutorampByExternalId", { external_id: "" });
    expect(textOf(path)).toContain("`external_id` must not be empty");
    await expect(session.call("noSuchTool", {})).rejects.toThrow(/No tool named noSuchTool/);
    expect((await session.tools()).length).toBeGreaterThan(0);
  });
});

const itemsOf = (result: { structuredContent?: Record<string, unknown> }) =>
  (result.structuredContent?.items ?? []) as unknown[];

describe("all_pages", () => {
  it("follows the cursors to the last page, or stops under the cap with a cursor to go on", async () => {
    const client = createPaymentsClient({ apiKey: SECRET_KEY, baseUrl: sandbox.url });
    const created: string[] = [];
    const search = async (args: Record<string, unknown>) => {
      const result = await session.call("listCustomers", { search_term: "pager-", ...args });
      return { result, ids: itemsOf(result).map((item) => (item as { id: string }).id) };
    };
    const create = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const customer = await client.customers.create({
          customer_type: "Person",
          email: `pager-${created.length}@example.com`,
        });
        created.push(customer.id);
      }
    };
    // A few pages that fit under the cap: all of them, in one answer.
    await create(30);
    const whole = await search({ page_size: 10, all_pages: true });
    expect(whole.ids.sort()).toEqual([...created].sort());
    expect(allTextOf(whole.result)).toContain(
      "all_pages: 3 pages, 30 items, the last page included",
    );

    // More than the cap holds: whole pages under it, then the rest from the answer's cursor.
    const perItem = JSON.stringify(itemsOf(whole.result)).length / created.length;
    await create(Math.ceil((1.5 * ALL_PAGES_MAX_CHARACTERS) / perItem) - created.length);
    const capped = await search({ page_size: 20, all_pages: true });
    expect(JSON.stringify(itemsOf(capped.result)).length).toBeLessThanOrEqual(
      ALL_PAGES_MAX_CHARACTERS,
    );
    expect(capped.ids.length % 20).toBe(0);
    expect(capped.ids.length).toBeLessThan(created.length);
    expect(allTextOf(capped.result)).toContain(
      "stopped before a page that would take the answer over 50,000 characters",
    );
    const rest = await search({
      page_size: 20,
      all_pages: true,
      cursor: capped.result.structuredContent?.cursor,
    });
    expect([...capped.ids, ...rest.ids].sort()).toEqual([...created].sort());
  });
});

describe("idempotency", () => {
  it("a call repeated with the same arguments reuses its key: the API does it once", async () => {
    const args = { customer_type: "Business", email: "retry@example.com", name: "Retry Ltd" };
    const first = await session.call("createCustomer", args);
    // The same arguments in another order are the same call.
    const { name, email, customer_type } = args;
    const again = await session.call("createCustomer", { name, email, customer_type });
    expect(first.isError).toBeFalsy();
    expect(again.structuredContent?.id).toBe(first.structuredContent?.id);
    const key = allTextOf(first).match(/IDEMPOTENCY-KEY ([0-9a-f-]{36})/)?.[1];
    expect(key).toBeDefined();
    expect(allTextOf(again)).toContain(`IDEMPOTENCY-KEY ${key} (reused`);
    expect(allTextOf(again)).toContain("the API replayed its first answer");
    const fresh = await session.call("createCustomer", {
      ...args,
      idempotency_key: crypto.randomUUID(),
    });
    expect(fresh.structuredContent?.id).not.toBe(first.structuredContent?.id);
  });
});

describe("the API key", () => {
  it("appears in nothing the server said but the data an argument put there", async () => {
    const echoed = await session.call("createCustomer", {
      customer_type: "Person",
      email: "echo@example.com",
      name: `Named ${SECRET_KEY}`,
    });
    expect(echoed.isError).toBeFalsy();
    // The customer's name is its data: it comes back as it was given.
    expect(echoed.structuredContent?.name).toBe(`Named ${SECRET_KEY}`);
    const echoes = new Set(session.received.slice(-1));
    await session.call("listCustomers", { search_term: "nobody-by-this-name" });
    const refused = await session.call("getFiatAddress", {
      customer_id: SECRET_KEY,
      fiat_address_id: "x",
    });
    expect(refused.isError).toBe(true);
    expect(session.received.length).toBeGreaterThan(10);
    for (const message of session.received) {
      if (!echoes.has(message)) expect(message).not.toContain(SECRET_KEY);
    }
    expect(session.stderr()).not.toContain(SECRET_KEY);
    expect(session.stderr()).toContain("is a sandbox");
  });
});

describe("resources", () => {
  it("offers both OpenAPI documents", async () => {
    const { resources } = await session.client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual([
      "payments://openapi/partner-payments.yaml",
      "payments://openapi/test-mode.yaml",
    ]);
    for (const resource of resources) {
      const { contents } = await session.client.readResource({ uri: resource.uri });
      const [content] = contents;
      expect(content && "text" in content ? content.text : "").toMatch(/^openapi: 3\.1\.0/);
    }
  });
});
