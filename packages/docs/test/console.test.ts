// The console's parts that need no browser: the operations made from the spec, the request a
// form makes, the reading of answers and problems, and the events a request caused.
import {
  deref,
  listOperations,
  loadBundledSpec,
  loadSpec,
  testModeSpecPath,
} from "@org/payments-spec";
import { describe, expect, it } from "vitest";
import { problemOf, readAnswer } from "../console/answer.ts";
import { eventsOf, eventsSince, watchEvents } from "../console/events.ts";
import type { ConsoleOperation } from "../console/operation.ts";
import { pageMayCall } from "../console/reachable.ts";
import { buildRequest, fieldKey, headerProblems, randomUuid } from "../console/request.ts";
import { consoleOperations } from "../src/console-operations.ts";
import { STATIC_CONNECT_SRC } from "../src/self-contained.ts";

const spec = loadSpec();
const operations = consoleOperations(spec);

function operation(operationId: string): ConsoleOperation {
  const found = operations.find((candidate) => candidate.operationId === operationId);
  if (!found) throw new Error(`no console for ${operationId}`);
  return found;
}

/** The form as the console first shows it: every field with its starting value, the first body example. */
function asShown(op: ConsoleOperation) {
  return {
    values: Object.fromEntries(op.parameters.map((p) => [fieldKey(p.in, p.name), p.value])),
    body: op.body ? JSON.stringify(op.body.examples[0]?.value, null, 2) : "",
  };
}

const settings = { apiKey: "key-1", subPartnerId: "" };
let counter = 0;
const keys = () => `00000000-0000-4000-8000-00000000000${counter++}`;

describe("consoleOperations", () => {
  it("gives every operation of the spec a console, in the spec's order", () => {
    expect(operations.map((op) => op.operationId)).toEqual(
      listOperations(spec).map((entry) => entry.operationId),
    );
    expect(operations).toHaveLength(23);
  });

  it("takes the two page-wide headers out of the fields and marks who takes them", () => {
    for (const entry of listOperations(spec)) {
      const op = operation(entry.operationId);
      const headers = entry.parameters.filter((p) => p.in === "header").map((p) => p.name);
      expect(op.subPartnerHeader, entry.operationId).toBe(
        headers.includes("X-SUB-PARTNER-ID") ? "X-SUB-PARTNER-ID" : undefined,
      );
      expect(op.idempotencyHeader, entry.operationId).toBe(
        headers.includes("IDEMPOTENCY-KEY") ? "IDEMPOTENCY-KEY" : undefined,
      );
      expect(op.parameters.map((p) => p.name)).not.toContain("X-SUB-PARTNER-ID");
      expect(op.parameters.map((p) => p.name)).not.toContain("IDEMPOTENCY-KEY");
    }
    expect(operation("listDocuments").subPartnerHeader).toBeUndefined();
  });

  it("fills path and required parameters with the spec's examples and offers enums", () => {
    const quote = operation("getAutorampQuote");
    for (const parameter of listOperations(spec).find((e) => e.operationId === "getAutorampQuote")
      ?.parameters ?? []) {
      if (parameter.in !== "query" || !parameter.required) continue;
      const field = quote.parameters.find((p) => p.name === parameter.name);
      expect(field?.value, parameter.name).toBe(String(parameter.example));
    }
    expect(quote.parameters.find((p) => p.name === "rate_expiry_policy")?.enum).toEqual([
      "Return",
      "Slippage",
    ]);
    expect(quote.parameters.find((p) => p.name === "is_third_party")?.type).toBe("boolean");
    const byIds = operation("listAutorampTransactionsByIds").parameters[0];
    expect(byIds).toMatchObject({ name: "ids", type: "array", format: "uuid" });
  });

  it("starts the test-mode routes' filters empty, their examples as hints", () => {
    const testMode = loadBundledSpec(testModeSpecPath);
    const events = consoleOperations(testMode, { filtersStartEmpty: true }).find(
      (candidate) => candidate.operationId === "listEvents",
    );
    const filters = events?.parameters.filter((p) => p.in === "query") ?? [];
    expect(filters.map((p) => p.name)).toContain("webhook_id");
    for (const filter of filters) expect(filter.value, filter.name).toBe("");
    const webhook = filters.find((p) => p.name === "webhook_id");
    expect(webhook?.placeholder).toMatch(/^[0-9a-f-]{36}$/);
    const withExamples = consoleOperations(testMode).find((c) => c.operationId === "listEvents");
    expect(withExamples?.parameters.find((p) => p.name === "webhook_id")?.value).toBe(
      webhook?.placeholder,
    );
  });

  it("offers every named body example, the first one first", () => {
    const entry = listOperations(spec).find((e) => e.operationId === "createCustomer");
    const media = deref(spec, entry?.operation.requestBody).content["application/json"];
    const names = Object.keys(media.examples);
    const body = operation("createCustomer").body;
    expect(body?.required).toBe(true);
    expect(body?.examples.map((example) => example.name)).toEqual(names);
    expect(body?.examples[0]?.value).toEqual(deref(spec, media.examples[names[0] ?? ""]).value);
    expect(operation("listCustomers").body).toBeUndefined();
  });
});

describe("buildRequest", () => {
  it("sends the example form with the key, a fresh idempotency key and the JSON body", () => {
    const op = operation("createDirectIdentification");
    const first = buildRequest(op, asShown(op), settings, "http://docs/sandbox/", keys);
    const second = buildRequest(op, asShown(op), settings, "http://docs/sandbox/", keys);
    expect(first.url).toBe(
      "http://docs/sandbox/customers/3f1c2a4e-8b7d-4c6a-9e2f-1a2b3c4d5e6f/identifications",
    );
    expect(first.method).toBe("POST");
    expect(first.headers).toMatchObject({
      "X-API-Key": "key-1",
      "Content-Type": "application/json; charset=utf-8",
    });
    expect(first.headers["IDEMPOTENCY-KEY"]).toBe(first.idempotencyKey);
    expect(second.idempotencyKey).not.toBe(first.idempotencyKey);
    expect(JSON.parse(first.body ?? "")).toEqual(op.body?.examples[0]?.value);
  });

  it("names each header fetch cannot send (not Latin-1), without quoting its value", () => {
    const op = operation("listCustomers");
    const key = "sandbox\u2011key"; // a non-breaking hyphen, as pasted from a document
    const request = buildRequest(op, asShown(op), { ...settings, apiKey: key }, "http://x", keys);
    const problems = headerProblems(request.headers);
    expect(problems).toEqual([
      { location: "header", field: "X-API-Key", rule: "latin1", message: expect.any(String) },
    ]);
    expect(JSON.stringify(problems)).not.toContain(key);
    expect(
      headerProblems(buildRequest(op, asShown(op), settings, "http://x", keys).headers),
    ).toEqual([]);
  });

  it("escapes path parameters, repeats array items and leaves out empty optional fields", () => {
    const byIds = operation("listAutorampTransactionsByIds");
    const request = buildRequest(
      byIds,
      { values: { [fieldKey("query", "ids")]: " a, b c,," }, body: "" },
      settings,
      "http://h",
      keys,
    );
    expect(request.url).toBe("http://h/autoramp-transactions/ids?ids=a&ids=b&ids=c");
    expect(request.body).toBeUndefined();
    expect(request.idempotencyKey).toBeUndefined();

    const fiat = operation("listFiatAddressesByCustomer");
    const values = { ...asShown(fiat).values, [fieldKey("path", "customer_id")]: "a/b c" };
    const url = new URL(buildRequest(fiat, { values, body: "" }, settings, "http://h", keys).url);
    expect(url.pathname).toBe("/addresses/fiat/a%2Fb%20c");
  });

  it("sends an empty required field empty, for the sandbox to name it", () => {
    const rate = operation("getExchangeRate");
    const values = { ...asShown(rate).values, [fieldKey("query", "amount")]: "" };
    const url = new URL(buildRequest(rate, { values, body: "" }, settings, "http://h", keys).url);
    expect(url.searchParams.get("amount")).toBe("");
  });

  it("sends the sub-partner only to operations that take it, and the body as typed", () => {
    const withSubPartner = { apiKey: "k", subPartnerId: " 5a9d2e71-3c4b-4f6a-8d1e-2b7c9f0a3e58 " };
    const create = operation("createCustomer");
    const request = buildRequest(
      create,
      { values: {}, body: "{ not json" },
      withSubPartner,
      "http://h",
      keys,
    );
    expect(request.headers["X-SUB-PARTNER-ID"]).toBe("5a9d2e71-3c4b-4f6a-8d1e-2b7c9f0a3e58");
    expect(request.body).toBe("{ not json");
    const documents = buildRequest(
      operation("listDocuments"),
      { values: {}, body: "" },
      withSubPartner,
      "http://h",
      keys,
    );
    expect(Object.keys(documents.headers)).toEqual(["Accept", "X-API-Key"]);
  });
});

describe("randomUuid", () => {
  it("makes version 4 UUIDs, a new one each time", () => {
    const made = new Set(Array.from({ length: 100 }, randomUuid));
    expect(made.size).toBe(100);
    for (const uuid of made) {
      expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});

describe("problemOf", () => {
  it("reads the location, field and rule of each problem of the sandbox's format", () => {
    expect(
      problemOf({
        type: "urn:org:payments-mock:problem:invalid-request",
        title: "Invalid request",
        detail: "body email: is required",
        errors: [{ location: "body", field: "email", rule: "required", message: "is required" }],
      }),
    ).toEqual({
      title: "Invalid request",
      detail: "body email: is required",
      problems: [{ location: "body", field: "email", rule: "required", message: "is required" }],
    });
  });

  it("finds no problems in other bodies", () => {
    expect(problemOf(true)).toEqual({ problems: [] });
    expect(problemOf([{ errors: [] }])).toEqual({ problems: [] });
    expect(problemOf({ errors: "many" })).toEqual({ problems: [] });
  });
});

describe("pageMayCall", () => {
  it("allows what a static copy's connect-src does: this site, and http on this machine", () => {
    expect(STATIC_CONNECT_SRC).toBe("connect-src 'self' http://127.0.0.1:* http://localhost:*");
    const site = "https://docs.example";
    const allowed = (url: string) => pageMayCall(url, site);
    expect(allowed("http://127.0.0.1:4010")).toBe(true);
    expect(allowed("http://localhost:1/api/v2")).toBe(true);
    expect(allowed("https://docs.example/sandbox")).toBe(true);
    expect(allowed("http://127.0.0.2:4010")).toBe(false);
    expect(allowed("https://127.0.0.1:4010")).toBe(false);
    expect(allowed("http://example.com")).toBe(false);
    expect(allowed("not a url")).toBe(false);
  });
});

describe("readAnswer", () => {
  it("reads a stream that stays open (GET /_sandbox/events/stream) for a while, then closes it", async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          new TextEncoder().encode("retry: 1000\n: the events after cursor 0\n\n"),
        );
        // and then nothing more: the sandbox holds it open until the client closes it
      },
      cancel() {
        cancelled = true;
      },
    });
    const answer = new Response(stream, {
      status: 200,
      headers: { "content-type": "text/event-stream; charset=utf-8" },
    });
    const started = performance.now();
    const read = await readAnswer(answer, { streamMs: 300 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(read).toMatchObject({ status: 200, problems: [] });
    expect(read.body).toContain(": the events after cursor 0");
    expect(read.note).toMatch(/stays open/);
    expect(cancelled).toBe(true);
  }, 5_000);
});

describe("events", () => {
  const event = (id: string) => ({ id, topic: "CustomerStatus" });

  it("reads GET /_sandbox/events and keeps what is new since a request, oldest first", () => {
    const before = new Set(eventsOf({ items: [event("b"), event("a")] }).map((e) => e.id));
    expect(eventsSince(before, [event("d"), event("c"), event("b"), event("a")])).toEqual([
      event("c"),
      event("d"),
    ]);
    expect(() => eventsOf({ events: [] })).toThrow("no `items` list");
  });

  it("watches the log a bounded number of times and reports each reading", async () => {
    const readings = [[], [event("x")], [event("y"), event("x")]];
    let reads = 0;
    const updates: string[][] = [];
    const found = await watchEvents({
      read: async () => readings[Math.min(reads++, readings.length - 1)] ?? [],
      before: new Set(),
      onUpdate: (events) => updates.push(events.map((e) => e.id)),
      polls: 4,
      intervalMs: 1,
    });
    expect(reads).toBe(4);
    expect(updates).toEqual([[], ["x"], ["x", "y"], ["x", "y"]]);
    expect(found.map((e) => e.id)).toEqual(["x", "y"]);
  });
});
