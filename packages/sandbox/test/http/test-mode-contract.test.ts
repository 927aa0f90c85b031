// The contract of the sandbox's own routes: every answer of every /_sandbox/ route, success and
// refusal, is one the test-mode document (openapi/test-mode.yaml) declares, with a body its schema
// admits; and every response the document declares is one the sandbox really gives.
import { loadBundledSpec, testModeSpecPath } from "@org/payments-spec";
import { API_KEY, call, createCustomer, newKey, startReceiver } from "@org/payments-testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";
import {
  declaredResponseKey,
  testModeOperation,
  testModeOperations,
  undeclaredControlAnswer,
} from "../support/test-mode-validator.js";

let sandbox: HttpSandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  sandbox = await startSandbox();
  receiver = await startReceiver();
});
afterAll(async () => {
  await sandbox.stop();
  await receiver.stop();
});

/** The responses seen, as `operationId key`. */
const seen = new Set<string>();

type Answer = Awaited<ReturnType<typeof call>>;

/** Sends a request to the operation's path (its `{id}` filled in), checks the answer against the document. */
async function control(
  operationId: string,
  options: {
    id?: string;
    /** The query string, without its `?`. */
    query?: string;
    body?: unknown;
    method?: string;
    headers?: Record<string, string>;
    raw?: string;
    contentType?: string;
  } = {},
): Promise<Answer> {
  const entry = testModeOperation(operationId);
  const path =
    entry.path.replace("{id}", encodeURIComponent(options.id ?? "")) +
    (options.query === undefined ? "" : `?${options.query}`);
  const method = options.method ?? entry.method.toUpperCase();
  const answer =
    options.raw === undefined
      ? await call(sandbox.url, method, path, { body: options.body, headers: options.headers })
      : await rawCall(method, path, options.raw, options.contentType);
  expect(
    undeclaredControlAnswer(operationId, answer),
    `${method} ${path} → ${answer.status}`,
  ).toEqual([]);
  seen.add(`${operationId} ${declaredResponseKey(operationId, answer.status)}`);
  return answer;
}

/** A request whose body is the text as given (such as JSON that does not parse). */
async function rawCall(
  method: string,
  path: string,
  text: string,
  contentType = "application/json",
): Promise<Answer> {
  const response = await fetch(sandbox.url + path, {
    method,
    headers: { "X-API-Key": "contract", "Content-Type": contentType },
    body: text,
  });
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: await response.json(),
  };
}

const MISSING = "6b1d3f5a-7c9e-4b2d-8f1a-3c5e7a9b1d2f";

it("answers the clock routes as the document says", async () => {
  expect((await control("getClock")).status).toBe(200);
  const advanced = await control("advanceClock", { body: { seconds: 60 } });
  expect(advanced.status).toBe(200);
  const later = new Date(Date.parse(advanced.body.now) + 3_600_000).toISOString();
  expect((await control("advanceClock", { body: { to: later } })).status).toBe(200);
  const back = await control("advanceClock", { body: { to: "2000-01-01T00:00:00Z" } });
  expect(back.status).toBe(422);
  expect((await control("advanceClock", { body: { seconds: 1, to: later } })).status).toBe(422);
});

it("answers the simulations, with their refusals, as the document says", async () => {
  const webhook = await control("addWebhook", {
    body: { url: `${receiver.url}/events`, topics: ["CustomerStatus", "TransactionStatus"] },
  });
  expect(webhook.status).toBe(200);
  expect((await control("addWebhook", { body: { url: "ftp://x", topics: ["Nope"] } })).status).toBe(
    422,
  );

  const customer = await createCustomer(sandbox.url, { customer_type: "Business" });
  const active = await control("setCustomerStatus", {
    id: customer.id,
    body: { status: "Active" },
  });
  expect(active.body.status).toBe("Active");
  expect(
    (await control("setCustomerStatus", { id: MISSING, body: { status: "Active" } })).status,
  ).toBe(404);
  expect(
    (await control("setCustomerStatus", { id: customer.id, body: { status: 3 } })).status,
  ).toBe(422);

  const identification = await call(
    sandbox.url,
    "POST",
    `/customers/${customer.id}/identifications`,
    { body: { type: "Direct" }, headers: newKey() },
  );
  expect(identification.status).toBe(200);
  const approved = await control("setIdentificationStatus", {
    id: identification.body.id,
    body: { status: "Approved" },
  });
  expect(approved.body.status).toBe("Approved");
  const declined = await control("setIdentificationStatus", {
    id: identification.body.id,
    body: { status: "Pending" },
  });
  expect(declined.status).toBe(422);
  expect(declined.body).toMatchObject({ current: "Approved", requested: "Pending" });
  expect(
    (await control("setIdentificationStatus", { id: MISSING, body: { status: "Approved" } }))
      .status,
  ).toBe(404);

  const autoramp = await call(sandbox.url, "POST", "/autoramps", {
    body: {
      customer_id: customer.id,
      destination_currency: { blockchain: "Polygon", token: "USDC" },
      recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
      source_currencies: [{ code: "EUR", type: "Fiat" }],
    },
    headers: newKey(),
  });
  expect(autoramp.body.status).toBe("Approved");
  expect(
    (await control("setAutorampStatus", { id: autoramp.body.id, body: { status: "EditPending" } }))
      .status,
  ).toBe(200);
  expect(
    (await control("setAutorampStatus", { id: autoramp.body.id, body: { status: "Approved" } }))
      .status,
  ).toBe(200);
  expect(
    (await control("setAutorampStatus", { id: MISSING, body: { status: "Approved" } })).status,
  ).toBe(404);
  expect(
    (await control("setAutorampStatus", { id: autoramp.body.id, body: { status: "Nope" } })).status,
  ).toBe(422);

  const deposit = await control("simulateDeposit", {
    id: autoramp.body.id,
    body: { amount: "1000.00", currency: "EUR" },
  });
  expect(deposit.body.status).toBe("FundsReceived");
  expect((await control("simulateDeposit", { id: MISSING, body: { amount: "1" } })).status).toBe(
    404,
  );
  expect(
    (await control("simulateDeposit", { id: autoramp.body.id, body: { amount: "0" } })).status,
  ).toBe(422);

  const completed = await control("setAutorampTransactionStatus", {
    id: deposit.body.id,
    body: { status: "Completed" },
  });
  expect(completed.body).toMatchObject({ status: "Completed", state: "Completed" });
  const illegal = await control("setAutorampTransactionStatus", {
    id: deposit.body.id,
    body: { status: "FundsReceived" },
  });
  expect(illegal.body).toMatchObject({
    type: "urn:org:payments-mock:problem:illegal-transition",
    current: "Completed",
    requested: "FundsReceived",
    reachable: [],
  });
  expect(
    (await control("setAutorampTransactionStatus", { id: MISSING, body: { status: "Completed" } }))
      .status,
  ).toBe(404);

  const address = await control("addFiatAddress", {
    id: customer.id,
    body: { iban: "de89 3704 0044 0532 0130 00", label: "Main" },
  });
  expect(address.body).toMatchObject({ status: "AuthorizationRequired" });
  expect(
    (await control("addFiatAddress", { id: MISSING, body: { iban: "DE89370400440532013000" } }))
      .status,
  ).toBe(404);
  expect(
    (await control("addFiatAddress", { id: customer.id, body: { iban: "nope" } })).status,
  ).toBe(422);
  const registered = await control("setFiatAddressStatus", {
    id: address.body.id,
    body: { status: "Registered" },
  });
  expect(registered.body.status).toBe("Registered");
  expect(
    (await control("setFiatAddressStatus", { id: MISSING, body: { status: "Registered" } })).status,
  ).toBe(404);
  expect(
    (await control("setFiatAddressStatus", { id: address.body.id, body: { status: "Pending" } }))
      .status,
  ).toBe(422);
});

it("answers the event log and redelivery as the document says", async () => {
  await control("advanceClock", { body: { seconds: 0 } });
  const events = await control("listEvents");
  expect(events.status).toBe(200);
  const delivered = events.body.items.find(
    (attempt: { url: string }) => attempt.url === `${receiver.url}/events`,
  );
  expect(delivered).toBeDefined();
  expect((await control("redeliverEvent", { id: delivered.id })).status).toBe(200);
  expect((await control("redeliverEvent", { id: MISSING })).status).toBe(404);
  // A query the document refuses is a 422 the document declares.
  const tooBig = await control("listEvents", { query: "page_size=101" });
  expect(tooBig.status).toBe(422);
  expect(tooBig.body.errors[0]).toMatchObject({ location: "query", field: "page_size" });
  expect((await control("listEvents", { query: "topic=Nope" })).status).toBe(422);
});

it("answers the event stream, receipts and the health check as the document says", async () => {
  await createCustomer(sandbox.url);
  // The stream's first part, read as far as its first event, then let go.
  const response = await fetch(`${sandbox.url}/_sandbox/events/stream?after=0`, {
    headers: { "X-API-Key": API_KEY },
  });
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    if (/\ndata: .*\n\n/.test(text)) break;
  }
  const streamed = {
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: text,
  };
  expect(undeclaredControlAnswer("streamEvents", streamed)).toEqual([]);
  seen.add(`streamEvents ${declaredResponseKey("streamEvents", streamed.status)}`);
  const id = /"id":"([^"]+)"/.exec(text.slice(text.indexOf("data: ")))?.[1];
  const cursor = /\nid: ([0-9]+)\n/.exec(text)?.[1];
  expect((await control("streamEvents", { query: "after=later" })).status).toBe(422);
  const logged = await control("listEventLog", { query: "topic=CustomerCreated&page_size=1" });
  expect(logged.body.items[0]).toMatchObject({
    topic: "CustomerCreated",
    cursor: expect.any(String),
  });
  expect((await control("listEventLog", { query: "topic=Nope" })).status).toBe(422);

  const receipts = await control("recordReceipts", {
    body: { receipts: [{ id, cursor, status_code: 204 }] },
  });
  expect(receipts.body).toEqual({ counted: 1, unknown: [] });
  expect((await control("recordReceipts", { body: { receipts: [{ id, cursor }] } })).status).toBe(
    422,
  );
  expect(
    (await control("recordReceipts", { raw: "receipts", contentType: "text/plain" })).status,
  ).toBe(415);
  expect((await control("getHealth")).status).toBe(200);
});

it("answers the rates and quote routes as the document says", async () => {
  expect((await control("getRates")).body.rates.USD).toBe("1");
  expect((await control("setRates", { body: { rates: { EUR: "1.10" } } })).body.rates.EUR).toBe(
    "1.10",
  );
  expect((await control("setRates", { body: { rates: { XYZ: "1" } } })).status).toBe(422);

  const customer = await createCustomer(sandbox.url);
  const quote = await call(
    sandbox.url,
    "GET",
    `/autoramps/quote?${new URLSearchParams({
      customer_id: customer.id,
      source_currency_code: "EUR",
      destination_currency_code: "USDC",
      destination_currency_chain: "Polygon",
      recipient_account: "DE89370400440532013000",
      amount_in: "1000.00",
      rate_expiry_policy: "Return",
      expiry_in_hours: "1",
      is_third_party: "false",
    })}`,
  );
  expect(quote.status).toBe(200);
  expect((await control("verifyQuote", { body: quote.body })).body).toMatchObject({ valid: true });
  const changed = { ...quote.body, rate: "2" };
  expect((await control("verifyQuote", { body: changed })).body).toEqual({ valid: false });
  expect((await control("verifyQuote", { body: { rate: "2" } })).status).toBe(422);
  expect((await control("getQuoteSigningKey")).body.algorithm).toBe("HMAC-SHA256");
  expect((await control("resetSandbox")).body).toEqual({ reset: true });
});

it("answers the fault rules, the rate limit and the request log as the document says", async () => {
  const armed = await control("armFault", {
    body: { operation_id: "listFeeProfiles", status: 503, retry_after: 1 },
  });
  expect(armed.status).toBe(201);
  expect((await control("armFault", { body: { operation_id: "nope", status: 503 } })).status).toBe(
    422,
  );
  expect((await control("listFaults")).body.items).toHaveLength(1);
  expect((await call(sandbox.url, "GET", "/fee-profiles")).status).toBe(503);
  expect((await control("listRequests", {})).body.items[0]).toMatchObject({
    fault_id: armed.body.id,
  });
  expect((await control("listRequests", { query: "status=99" })).status).toBe(422);
  expect((await control("disarmFault", { id: armed.body.id })).status).toBe(404);
  const again = await control("armFault", {
    body: { operation_id: "listFeeProfiles", delay_ms: 1 },
  });
  expect((await control("disarmFault", { id: again.body.id })).status).toBe(200);
  expect(
    (await control("setRateLimit", { body: { requests_per_second: 1000, burst: 1000 } })).status,
  ).toBe(200);
  expect((await control("setRateLimit", { body: { requests_per_second: 0 } })).status).toBe(422);
  expect((await control("setRateLimit", { body: { requests_per_second: null } })).status).toBe(200);
});

it("answers the readiness report as the document says", async () => {
  await createCustomer(sandbox.url);
  const report = (await control("getReadiness")).body;
  expect(report.ready).toBe(false);
  expect(report.coverage.operations.createCustomer.calls).toBeGreaterThan(0);
});

it("refuses a request without an API key, a malformed body and an unknown method with a declared problem", async () => {
  for (const { operationId, path, method, operation } of testModeOperations) {
    const id = path.includes("{id}") ? MISSING : undefined;
    const noKey = await control(operationId, { id, headers: { "X-API-Key": "" } });
    const open = Array.isArray(operation.security) && operation.security.length === 0;
    expect(noKey.status, `${method} ${path}`).toBe(open ? 200 : 401);
    if (method === "post" || method === "put") {
      const malformed = await control(operationId, { id, raw: "{" });
      expect(malformed.status, `${method} ${path}`).toBe(400);
    }
    const other = await control(operationId, { id, method: "PATCH" });
    expect(other.status, `PATCH ${path}`).toBe(405);
  }
});

it("refuses a body in a media type the operation does not take with a 415, as the API's routes do", async () => {
  const api = await call(sandbox.url, "POST", "/customers", {
    headers: { ...newKey(), "Content-Type": "text/plain" },
  });
  const text = await fetch(`${sandbox.url}/customers`, {
    method: "POST",
    headers: { "X-API-Key": "contract", ...newKey(), "Content-Type": "text/plain" },
    body: "customer_type=Person",
  });
  const apiAnswer = await text.json();
  expect(text.status).toBe(415);
  const shape = {
    type: "urn:org:payments-mock:problem:invalid-request",
    status: 415,
    errors: [
      expect.objectContaining({ location: "header", field: "Content-Type", rule: "mediaType" }),
    ],
  };
  expect(apiAnswer).toMatchObject(shape);
  expect(api.status).not.toBe(500);
  for (const { operationId, path, operation } of testModeOperations) {
    if (operation.requestBody === undefined) continue;
    const id = path.includes("{id}") ? MISSING : undefined;
    for (const contentType of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "application/xml",
    ]) {
      const refused = await control(operationId, { id, raw: "status=Active", contentType });
      expect(refused.status, `${operationId} ${contentType}`).toBe(415);
      expect(refused.body, `${operationId} ${contentType}`).toMatchObject(shape);
    }
  }
});

it("refuses a body the document does not admit in plain words, naming the field and the rule", async () => {
  const customer = await createCustomer(sandbox.url);
  const cases: Array<[string, string | undefined, unknown, string, string]> = [
    [
      "addWebhook",
      undefined,
      { url: "http://x.test", topics: [], id: "x" },
      "id",
      "additionalProperties",
    ],
    ["addWebhook", undefined, { url: "ftp://x", topics: [] }, "url", "pattern"],
    ["addWebhook", undefined, { url: "http://x.test", topics: ["Nope"] }, "topics.0", "enum"],
    ["addWebhook", undefined, [1, 2], "", "type"],
    ["advanceClock", undefined, { seconds: -1 }, "seconds", "minimum"],
    ["advanceClock", undefined, { to: "tomorrow" }, "to", "format"],
    ["setCustomerStatus", customer.id, { status: "Nope" }, "status", "enum"],
    ["setCustomerStatus", customer.id, {}, "status", "required"],
    ["simulateDeposit", MISSING, { amount: "0.00" }, "amount", "not"],
    ["simulateDeposit", MISSING, { amount: "1e3" }, "amount", "pattern"],
    ["addFiatAddress", customer.id, { iban: "DE89" }, "iban", "pattern"],
    ["setRates", undefined, { rates: { EUR: "-1" } }, "rates.EUR", "pattern"],
    ["setRates", undefined, { rates: { XAU: "1" } }, "rates.XAU", "additionalProperties"],
    ["verifyQuote", undefined, { rate: "1" }, "signature", "required"],
    ["armFault", undefined, { operation_id: "createCustomer", status: 200 }, "status", "minimum"],
    ["armFault", undefined, { operation_id: "createCustomer" }, "status", "anyOf"],
    ["armFault", undefined, { topic: "Nope", delivery: "drop" }, "topic", "enum"],
    ["setRateLimit", undefined, { burst: 2 }, "requests_per_second", "required"],
  ];
  for (const [operationId, id, body, field, rule] of cases) {
    const answer = await control(operationId, { id, body });
    const what = `${operationId} ${JSON.stringify(body)}`;
    expect(answer.status, what).toBe(422);
    expect(answer.body.errors, what).toContainEqual(expect.objectContaining({ field, rule }));
    for (const error of answer.body.errors) {
      expect(error.message, what).not.toMatch(/must NOT|allowed values|must match pattern|\^/);
    }
  }
  // A body, of any media type, is one a route without a body does not take.
  const bodied = await control("resetSandbox", { body: { everything: true } });
  expect(bodied.status).toBe(415);
  expect(bodied.body.errors).toContainEqual(expect.objectContaining({ field: "", rule: "absent" }));
  const unknown = await call(sandbox.url, "GET", "/_sandbox/nowhere");
  expect(unknown.status).toBe(404);
  expect(unknown.body.detail).toContain(
    "no operation of the test mode has the path /_sandbox/nowhere",
  );
});

it("serves the document it is held to, every $ref local", async () => {
  const served = await control("getTestModeDocument", { headers: { "X-API-Key": "" } });
  expect(served.status).toBe(200);
  expect(served.body).toEqual(loadBundledSpec(testModeSpecPath));
  const refs = JSON.stringify(served.body).match(/"\$ref":"[^"]*"/g) ?? [];
  expect(refs.filter((ref) => !ref.startsWith('"$ref":"#/'))).toEqual([]);
  expect((await control("getTestModeDocument", { raw: "{}", method: "POST" })).status).toBe(405);
});

it("tells an answer the document does not declare", () => {
  const json = "application/json";
  expect(
    undeclaredControlAnswer("getClock", { status: 200, contentType: json, body: {} }),
  ).not.toEqual([]);
  expect(
    undeclaredControlAnswer("getClock", { status: 404, contentType: json, body: {} }),
  ).not.toEqual([]);
  expect(
    undeclaredControlAnswer("resetSandbox", { status: 200, contentType: "text/plain", body: "" }),
  ).not.toEqual([]);
});

it("declares the 422 of every operation whose query parameters or body the document validates", () => {
  // The sandbox refuses a request that breaks the document with a 422 (invalid-request): an
  // operation that takes a query or a body states that answer, not only its default.
  const validated = testModeOperations.filter(
    ({ operation, parameters }) =>
      operation.requestBody !== undefined ||
      parameters.some((parameter: { in: string }) => parameter.in === "query"),
  );
  expect(validated.length).toBeGreaterThan(5);
  const without = validated
    .filter(({ operation }) => !("422" in (operation.responses ?? {})))
    .map(({ operationId }) => operationId);
  expect(without).toEqual([]);
});

it("gives every answer the document declares", () => {
  const declared = testModeOperations.flatMap(({ operationId, operation }) =>
    Object.keys(operation.responses).map((key) => `${operationId} ${key}`),
  );
  expect(declared.filter((response) => !seen.has(response))).toEqual([]);
});
