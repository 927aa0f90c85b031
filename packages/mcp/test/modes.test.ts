// What a session lists against a sandbox, by mode: the default that fits a client's limits (every
// API operation, the test mode's common ones), --toolsets, --read-only and --dynamic; and what
// every session offers beside its tools: instructions, prompts, no resource templates.
import {
  answersStream,
  listOperations,
  loadBundledSpec,
  loadSpec,
  testModeSpecPath,
} from "@org/payments-spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TEST_MODE_TOOLS } from "../src/toolsets.ts";
import { type RunningServer, startSandbox } from "./support/servers.js";
import { type Session, startSession, textOf } from "./support/session.js";

const api = listOperations(loadSpec());
const testModeDocument = loadBundledSpec(testModeSpecPath);
// A streamed answer (the event stream) is no tool: a tool call waits for a whole answer.
const testMode = listOperations(testModeDocument).filter(
  (op) => !answersStream(testModeDocument, op),
);
const apiIds = api.map((op) => op.operationId);
const reads = [...api, ...testMode].filter((op) => op.method === "get").map((op) => op.operationId);

/** The limits of the clients the default must fit. */
const MAX_TOOLS = 40;
const MAX_LIST_BYTES = 40_000;

/** The operationIds a search answered. */
const idsOf = (result: { structuredContent?: Record<string, unknown> }) =>
  ((result.structuredContent?.operations ?? []) as { operation_id: string }[]).map(
    (op) => op.operation_id,
  );

let sandbox: RunningServer;
const sessions: Session[] = [];
const open = async (args: string[] = []) => {
  const session = await startSession(sandbox.url, { args });
  sessions.push(session);
  return session;
};

beforeAll(async () => {
  sandbox = await startSandbox();
});

afterAll(async () => {
  for (const session of sessions) await session.close();
  await sandbox?.stop();
});

describe("the default tool list", () => {
  it("fits: at most 40 tools in 40,000 bytes, every API operation and the common test-mode ones", async () => {
    const session = await open();
    const tools = await session.tools();
    const names = tools.map((tool) => tool.name);
    expect(names.length).toBeLessThanOrEqual(MAX_TOOLS);
    expect(JSON.stringify(tools).length).toBeLessThanOrEqual(MAX_LIST_BYTES);
    for (const id of apiIds) expect(names).toContain(id);
    const expected = testMode
      .map((op) => op.operationId)
      .filter((id) => DEFAULT_TEST_MODE_TOOLS.has(id));
    expect(names.filter((name) => !apiIds.includes(name)).sort()).toEqual(expected.sort());
    for (const id of [
      "getClock",
      "advanceClock",
      "setCustomerStatus",
      "simulateDeposit",
      "listEvents",
    ]) {
      expect(names).toContain(id);
    }
  });

  it("leaves the other test-mode tools out, and they can still be called by name", async () => {
    const session = await open();
    const names = (await session.tools()).map((tool) => tool.name);
    expect(names).not.toContain("getRates");
    const rates = await session.call("getRates");
    expect(rates.isError).toBeFalsy();
  });
});

describe("--toolsets", () => {
  it("picks groups by the spec's tags and test-mode", async () => {
    const session = await open(["--toolsets", "customers,test-mode"]);
    const names = (await session.tools()).map((tool) => tool.name).sort();
    const customers = api.filter((op) => op.tag === "Customers").map((op) => op.operationId);
    expect(names).toEqual([...customers, ...testMode.map((op) => op.operationId)].sort());
  });
});

describe("--read-only", () => {
  it("lists only the tools that read, and refuses a write asked for by name", async () => {
    const session = await open(["--read-only"]);
    const names = (await session.tools()).map((tool) => tool.name);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(reads).toContain(name);
    const refused = await session.call("createCustomer", {
      customer_type: "Person",
      email: "read-only@example.com",
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("--read-only");
    const found = await session.call("listCustomers", { search_term: "read-only@example.com" });
    expect(found.structuredContent?.items).toEqual([]);
    // What it logs at start says so too.
    expect(session.stderr()).toContain("is a sandbox: writes refused (--read-only)");
    expect(session.stderr()).not.toContain("writes allowed");
  });
});

describe("--dynamic", () => {
  it("lists three tools that find, describe and call every operation", async () => {
    const session = await open(["--dynamic"]);
    const names = (await session.tools()).map((tool) => tool.name).sort();
    expect(names).toEqual(["call_operation", "describe_operation", "search_operations"]);

    const found = await session.call("search_operations", { query: "list customers" });
    expect(idsOf(found)[0]).toBe("listCustomers");
    const clock = await session.call("search_operations", { query: "clock" });
    const clockIds = idsOf(clock);
    expect(clockIds).toEqual(expect.arrayContaining(["getClock", "advanceClock"]));

    const described = await session.call("describe_operation", { operation_id: "createCustomer" });
    const schema = described.structuredContent?.input_schema as { required: string[] };
    expect(schema.required).toEqual(["customer_type", "email"]);

    const created = await session.call("call_operation", {
      operation_id: "createCustomer",
      arguments: { customer_type: "Person", email: "dynamic@example.com" },
    });
    expect(created.isError).toBeFalsy();
    const listed = await session.call("call_operation", {
      operation_id: "listCustomers",
      arguments: { search_term: "dynamic@example.com" },
    });
    expect(listed.isError).toBeFalsy();
    const items = listed.structuredContent?.items as { email: string }[];
    expect(items.map((item) => item.email)).toEqual(["dynamic@example.com"]);

    const bad = await session.call("call_operation", {
      operation_id: "createCustomer",
      arguments: { customer_type: "Robot" },
    });
    expect(textOf(bad)).toContain("`email` is required");
    const wrong = await session.call("call_operation", {
      operation_id: "listCustomers",
      arguments: [1],
    });
    expect(textOf(wrong)).toContain("`arguments` must be an object");
    const proto = await session.call(
      "call_operation",
      JSON.parse('{"operation_id":"listCustomers","arguments":{},"__proto__":{"a":1}}'),
    );
    expect(textOf(proto)).toContain("`__proto__` is not an argument of this tool");
    const nestedProto = await session.call(
      "call_operation",
      JSON.parse('{"operation_id":"listCustomers","arguments":{"__proto__":{"a":1}}}'),
    );
    expect(textOf(nestedProto)).toContain("`__proto__` is not an argument of this tool");
    const long = await session.call("search_operations", { query: "x".repeat(100_000) });
    expect(textOf(long)).toContain("`query` must be at most 200 characters long");
    const unknown = await session.call("describe_operation", { operation_id: "deleteEverything" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain("search_operations finds one");
  });

  it("with --read-only, neither finds nor calls a write", async () => {
    const session = await open(["--dynamic", "--read-only"]);
    const found = await session.call("search_operations", { query: "create customer" });
    const ids = idsOf(found);
    expect(ids).not.toContain("createCustomer");
    const refused = await session.call("call_operation", {
      operation_id: "createCustomer",
      arguments: { customer_type: "Person", email: "x@example.com" },
    });
    expect(refused.isError).toBe(true);
  });
});

describe("the rehearse_failure prompt's steps", () => {
  it("work as it says: a 503 armed, the call done once with one key, the fault spent", async () => {
    const session = await open();
    const fault = await session.ok("armFault", {
      operation_id: "createCustomer",
      status: 503,
      times: 1,
    });
    const key = crypto.randomUUID();
    const created = await session.call("createCustomer", {
      customer_type: "Person",
      email: "rehearsal@example.com",
      idempotency_key: key,
    });
    expect(created.isError, textOf(created)).toBeFalsy();
    const armed = await session.ok("listFaults");
    expect((armed.items as { id: string }[]).map((item) => item.id)).not.toContain(fault.id);
    // The request log (by name: it is not in the default list) holds the 503 and the retry.
    await expect
      .poll(async () => {
        const log = await session.ok("listRequests", { idempotency_key: key });
        return (log.items as { status: number }[]).map((item) => item.status).sort();
      })
      .toEqual([200, 503]);
  });
});

describe("beside the tools", () => {
  it("gives instructions, three prompts with arguments, and no resource templates", async () => {
    const session = await open();
    const instructions = session.client.getInstructions() ?? "";
    expect(instructions).toContain("Each API key is a partner of its own");
    expect(instructions).toContain("advanceClock");
    expect(instructions).toContain("listEvents");

    const { prompts } = await session.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual([
      "onboard_customer",
      "fund_autoramp",
      "rehearse_failure",
    ]);
    for (const prompt of prompts) expect(prompt.arguments?.length).toBeGreaterThan(0);
    const onboard = await session.client.getPrompt({
      name: "onboard_customer",
      arguments: { email: "ada@example.com" },
    });
    const [message] = onboard.messages;
    expect(message?.content.type === "text" && message.content.text).toContain("ada@example.com");
    await expect(
      session.client.getPrompt({ name: "fund_autoramp", arguments: {} }),
    ).rejects.toThrow(/customer_id/);

    const { resourceTemplates } = await session.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([]);
  });
});
