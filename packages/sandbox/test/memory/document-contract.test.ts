// The documents are the sandbox's contract, exactly: for every operation with a JSON body, of the
// test-mode document as the sandbox serves it and of the API's document, fast-check drives
// bodies made from the operation's schema (json-schema-faker) and near misses of them, Ajv (not
// the engine the sandbox validates with) says which the document allows, and the sandbox must
// agree: it may not refuse a body the document allows, nor take one it refuses. The test is
// generic over the operations, so routes added to a document are held to it too.
//
// What the sandbox refuses of an allowed body is a rule of its state, which no schema can state;
// each is listed below with why (the docs say the same: packages/docs/guides/sandbox.md), and
// those of the API's operations, which the API's document cannot state, are the test-mode
// document's `x-sandbox-rules`. A refusal of an allowed body that is not one of them fails the test. It runs on the in-memory
// store only: validation does not depend on the store.
import {
  listOperations,
  loadBundledSpec,
  loadSpec,
  type OpenApiDocument,
  testModeSpecPath,
} from "@org/payments-spec";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newApiKey } from "../../src/index.js";
import { DocumentSchemas, nearMisses, sampleBody } from "../support/body-samples.js";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

/** A refusal the sandbox may give a body the document allows: a rule of its state. */
interface StateRule {
  /** The problem's type (after `urn:org:payments-mock:problem:`). */
  type: string;
  /** The field its errors name, when it matters. */
  fields?: string[];
  rule?: string;
  /** Where its errors are; default the body. */
  locations?: string[];
  why: string;
}

const ANY_ID: StateRule = {
  type: "not-found",
  locations: ["path"],
  why: "an id in the path the partner does not hold",
};

/** An id in the body that names no resource of the partner. */
const BODY_ID: StateRule = {
  type: "not-found",
  fields: ["customer_id", "document_id"],
  rule: "exists",
  why: "an id in the body the partner does not hold",
};

/**
 * The rules the sandbox enforces on the API's operations beyond the API's document, as the
 * test-mode document lists them (`x-sandbox-rules`, by operationId or `POST`): the sandbox may
 * refuse an allowed body by one of them, and by no other.
 */
const SANDBOX_RULES = loadBundledSpec(testModeSpecPath)["x-sandbox-rules"] as Record<
  string,
  { type: string; location: string; fields: string[]; rule: string; when: string }[]
>;

function sandboxRules(operationId: string, method: string): StateRule[] {
  return [
    ...(SANDBOX_RULES[operationId] ?? []),
    ...(SANDBOX_RULES[method.toUpperCase()] ?? []),
  ].map(({ type, location, fields, rule, when }) => ({
    type,
    locations: [location],
    fields,
    rule,
    why: when,
  }));
}

/** By operationId (`*` for every operation): the state rules each enforces. */
const STATE_RULES: Record<string, StateRule[]> = {
  "*": [ANY_ID, BODY_ID],
  advanceClock: [
    {
      type: "invalid-request",
      fields: ["to"],
      rule: "minimum",
      why: "`to` before the partner's sandbox now (its clock never goes back)",
    },
    {
      type: "invalid-request",
      fields: ["to"],
      rule: "maximum",
      why: "`to` more than a century after the partner's sandbox now",
    },
  ],
  setCustomerStatus: [
    { type: "illegal-transition", why: "a status the customer's current one cannot reach" },
  ],
  setIdentificationStatus: [
    { type: "illegal-transition", why: "a status the identification's current one cannot reach" },
  ],
  setAutorampStatus: [
    { type: "illegal-transition", why: "a status the autoramp's current one cannot reach" },
  ],
  setFiatAddressStatus: [
    { type: "illegal-transition", why: "a status the fiat address's current one cannot reach" },
  ],
  setAutorampTransactionStatus: [
    { type: "illegal-transition", why: "a status the transaction's current one cannot reach" },
  ],
  simulateDeposit: [
    {
      type: "autoramp-not-approved",
      why: "an autoramp that is not Approved (a status walk of this run may have moved it)",
    },
    {
      type: "invalid-request",
      fields: ["currency", "source_currency"],
      rule: "enum",
      why: "a currency that is not one of the autoramp's source currencies",
    },
    {
      type: "invalid-request",
      fields: ["currency", "source_currency"],
      rule: "supported",
      why: "a currency the autoramp lists but the sandbox does not price",
    },
    {
      type: "invalid-request",
      fields: ["rail", "deposit_account_type"],
      rule: "rail",
      why: "a rail that cannot carry the autoramp's currency (Wallet for crypto, a bank rail for fiat)",
    },
    {
      type: "invalid-request",
      fields: ["amount"],
      rule: "places",
      why: "more decimal places than the autoramp's currency has",
    },
    {
      type: "invalid-request",
      fields: ["amount"],
      rule: "minimum",
      why: "an amount the fees take whole",
    },
  ],
};

/** Whether the answer is one of the state rules of the operation. */
function isStateRefusal(operationId: string, method: string, answer: Answer): boolean {
  const rules = [
    ...(STATE_RULES["*"] ?? []),
    ...(STATE_RULES[operationId] ?? []),
    ...sandboxRules(operationId, method),
  ];
  const type = String(answer.body?.type ?? "").replace("urn:org:payments-mock:problem:", "");
  const errors = (answer.body?.errors ?? []) as { location: string; field: string; rule: string }[];
  return rules.some(
    (rule) =>
      rule.type === type &&
      errors.length > 0 &&
      errors.every(
        (error) =>
          (rule.locations ?? ["body"]).includes(error.location) &&
          // A field inside a listed one (`source_currencies.0`) is the listed field's.
          (rule.fields === undefined ||
            rule.fields.includes(error.field) ||
            rule.fields.includes(error.field.split(".")[0] ?? "")) &&
          (rule.rule === undefined || rule.rule === error.rule),
      ),
  );
}

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer read loosely
  body: any;
}

let sandbox: HttpSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

async function send(
  key: string,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(sandbox.url + path, {
    method: method.toUpperCase(),
    headers: { "X-API-Key": key, "Content-Type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
}

const idempotent = () => ({ "IDEMPOTENCY-KEY": crypto.randomUUID() });

/** What the partner of `key` makes through the API: one resource of each kind a path names. */
async function fixtures(key: string): Promise<Record<string, string>> {
  const ok = async (method: string, path: string, body?: unknown, api = true) => {
    const answer = await send(key, method, path, body, api ? idempotent() : {});
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const customer = await ok("POST", "/customers", {
    customer_type: "Business",
    email: "c@example.com",
  });
  await ok("POST", `/_sandbox/customers/${customer.id}/status`, { status: "Active" }, false);
  const identification = await ok("POST", `/customers/${customer.id}/identifications`, {
    type: "Direct",
  });
  const autoramp = await ok("POST", "/autoramps", {
    customer_id: customer.id,
    destination_currency: { blockchain: "Polygon", token: "USDC" },
    recipient_account: { type: "Fiat", account_identifier: { iban: "DE89370400440532013000" } },
    source_currencies: [{ code: "EUR", type: "Fiat" }],
  });
  const fiat = await ok(
    "POST",
    `/_sandbox/customers/${customer.id}/fiat-addresses`,
    { iban: "DE89370400440532013000" },
    false,
  );
  const transaction = await ok(
    "POST",
    `/_sandbox/autoramps/${autoramp.id}/deposits`,
    { amount: "1000.00" },
    false,
  );
  const webhook = await ok(
    "POST",
    "/_sandbox/webhooks",
    { url: "https://receiver.example/hook", topics: ["Ping"] },
    false,
  );
  const documents = await send(key, "GET", "/documents", undefined);
  return {
    customers: customer.id,
    identifications: identification.id,
    autoramps: autoramp.id,
    "addresses/fiat": fiat.id,
    "autoramp-transactions": transaction.id,
    webhooks: webhook.id,
    documents: documents.body.items[0].id,
  };
}

/** Fields that name a resource of the partner, by the collection it is in. */
const ID_FIELDS: Record<string, string> = { customer_id: "customers", document_id: "documents" };

/**
 * The body with, every other seed, the ids it names those of the partner's resources, so that
 * the sandbox gets past "no such customer" to the rules behind it.
 */
function withPartnerIds(body: unknown, ids: Record<string, string>, seed: number): unknown {
  if (seed % 2 === 1 || typeof body !== "object" || body === null || Array.isArray(body))
    return body;
  const fields = body as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => {
      const collection = ID_FIELDS[name];
      return [
        name,
        collection !== undefined && typeof value === "string" ? ids[collection] : value,
      ];
    }),
  );
}

/** The path with its `{id}` the partner's resource of the collection before it, or a missing id. */
function pathWithIds(path: string, ids: Record<string, string>): string {
  return path.replace(/\/([a-z-]+(?:\/[a-z]+)?)\/\{[^}]+\}/g, (_whole, collection: string) => {
    const id =
      ids[collection] ??
      ids[collection.split("/").at(-1) ?? ""] ??
      "6b1d3f5a-7c9e-4b2d-8f1a-3c5e7a9b1d2f";
    return `/${collection}/${encodeURIComponent(id)}`;
  });
}

/** The operations of a document that take a JSON body, with the body's schema and examples. */
function bodyOperations(doc: OpenApiDocument, schemas: DocumentSchemas) {
  return listOperations(doc).flatMap(({ operationId, method, path, operation }) => {
    const body = schemas.resolve(operation.requestBody);
    const media = body.content?.["application/json" as never] as
      | { schema?: unknown; examples?: Record<string, unknown> }
      | undefined;
    if (media?.schema === undefined) return [];
    const examples = Object.values(media.examples ?? {}).map(
      (example) => schemas.resolve(example).value,
    );
    return [{ operationId, method, path, schema: media.schema, examples }];
  });
}

/**
 * A body to start from: json-schema-faker's, or every third seed one of the document's examples
 * (a schema whose fields depend on each other, such as a fault rule's, is one json-schema-faker
 * seldom fills validly).
 */
function baseBody(
  schemas: DocumentSchemas,
  operation: { schema: unknown; examples: unknown[] },
  seed: number,
): unknown {
  const { examples } = operation;
  if (seed % 3 === 2 && examples.length > 0) {
    return structuredClone(examples[Math.floor(seed / 3) % examples.length]);
  }
  return sampleBody(schemas, operation.schema, seed);
}

/** Per operation, how many valid and how many refused bodies a run sent: both kinds are tried. */
type Tally = Map<string, { allowed: number; refused: number }>;

async function holdToDocument(
  doc: OpenApiDocument,
  options: { api: boolean; runs: number },
): Promise<Tally> {
  const schemas = new DocumentSchemas(doc);
  const tally: Tally = new Map();
  for (const operation of bodyOperations(doc, schemas)) {
    const { operationId, method, path, schema } = operation;
    // A partner of its own per operation, with a resource of each kind for the paths' ids.
    const key = newApiKey();
    const ids = await fixtures(key);
    const target = pathWithIds(path, ids);
    const misses = nearMisses(schemas, schema);
    const counts = { allowed: 0, refused: 0 };
    tally.set(operationId, counts);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.option(fc.constantFrom(...misses), { freq: 2 }),
        async (seed, miss) => {
          const base = withPartnerIds(baseBody(schemas, operation, seed), ids, seed);
          const body = miss === null ? base : miss.apply(base as Record<string, unknown>);
          const problems = schemas.problems(schema, body);
          const answer = await send(key, method, target, body, options.api ? idempotent() : {});
          const what = `${operationId} ${miss?.name ?? "as sampled"}: ${JSON.stringify(body)} → ${answer.status} ${JSON.stringify(answer.body)}`;
          if (problems.length === 0) {
            counts.allowed++;
            // Allowed by the document: taken, or refused by a rule of the sandbox's state.
            expect(
              answer.status < 300 || isStateRefusal(operationId, method, answer),
              `the document allows ${what}`,
            ).toBe(true);
          } else {
            counts.refused++;
            expect(answer.status, `the document refuses (${problems.join("; ")}) ${what}`).toBe(
              422,
            );
            expect(answer.body.type).toBe("urn:org:payments-mock:problem:invalid-request");
            // Each refusal names a field, or the body as a whole for one that is not an object.
            for (const error of answer.body.errors) {
              expect(error.field !== "" || typeof body !== "object" || body === null, what).toBe(
                true,
              );
            }
          }
        },
      ),
      { numRuns: options.runs },
    );
  }
  return tally;
}

describe("the sandbox against its documents", () => {
  it("takes every body of a test-mode operation the document allows and refuses every other", async () => {
    const tally = await holdToDocument(loadBundledSpec(testModeSpecPath), { api: false, runs: 40 });
    expect([...tally.keys()].length).toBeGreaterThan(5);
    for (const [operationId, counts] of tally) {
      expect(counts.allowed, `${operationId}: no valid body was tried`).toBeGreaterThan(0);
      expect(counts.refused, `${operationId}: no refused body was tried`).toBeGreaterThan(0);
    }
  }, 300_000);

  it("takes every body of an API operation the API's document allows and refuses every other", async () => {
    const tally = await holdToDocument(loadSpec(), { api: true, runs: 40 });
    expect([...tally.keys()].length).toBeGreaterThan(5);
    for (const [operationId, counts] of tally) {
      expect(counts.allowed, `${operationId}: no valid body was tried`).toBeGreaterThan(0);
      expect(counts.refused, `${operationId}: no refused body was tried`).toBeGreaterThan(0);
    }
  }, 300_000);
});
