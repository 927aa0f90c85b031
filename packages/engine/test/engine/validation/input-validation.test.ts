// The mock's copy of Prism's request validation finds exactly what Prism's own finds, for valid
// and broken requests to every operation (the fuzzer's requests, as Prism is given them). The
// validation is generic: a tiny spec has the shapes it checks (requests.yaml).
import { fileURLToPath } from "node:url";
import { loadSpec } from "@org/payments-spec";
import { fuzzRequests } from "@org/payments-testing";
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import { validateInput } from "@stoplight/prism-http/dist/validator/index.js";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { cachedValidateInput } from "../../../src/engine/validation/input-validation.js";
import { bodyHeaders, prismInput } from "../../support/prism-input.js";

const requestsSpec = fileURLToPath(new URL("../../fixtures/specs/requests.yaml", import.meta.url));
const fuzzRequest = fuzzRequests(loadSpec(requestsSpec));

type Operations = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>;

let operations: Operations;
beforeAll(async () => {
  operations = await getHttpOperationsFromSpec(requestsSpec);
});

/**
 * Prism's validateInput, as it answers a request's media type whatever it was asked before. Prism
 * remembers a compiled schema by the schema alone, not by whether it coerces: once a form body has
 * been checked against an operation's schema (with coercion), a JSON body checked later against
 * the same schema is coerced too (`{"kind": 0}` then lacks its type error). The mock never gives
 * Prism a JSON body (it checks those itself), so Prism gets a copy of the operation per media type.
 */
function prismsValidateInput(options: Parameters<typeof validateInput>[0]) {
  const mediaType = options.element.headers?.["content-type"];
  let copies = operationCopies.get(mediaType);
  if (copies === undefined) {
    copies = new Map();
    operationCopies.set(mediaType, copies);
  }
  let resource = copies.get(options.resource);
  if (resource === undefined) {
    resource = structuredClone(options.resource);
    copies.set(options.resource, resource);
  }
  return validateInput({ ...options, resource });
}
type Operation = Parameters<typeof validateInput>[0]["resource"];
const operationCopies = new Map<string | undefined, Map<Operation, Operation>>();

/** A validation's result, or the message of what it threw. */
function outcome(validate: () => unknown): unknown {
  try {
    return validate();
  } catch (error) {
    return { threw: (error as Error).message };
  }
}

describe("the mock's request validation", () => {
  it("finds what Prism's validateInput finds, for every operation", () => {
    const validate = cachedValidateInput();
    let rejected = 0;
    fc.assert(
      fc.property(fuzzRequest, bodyHeaders, (wire, stated) => {
        const resource = operations.find((operation) => operation.iid === wire.operationId);
        if (!resource) throw new Error(`no operation ${wire.operationId}`);
        const element = prismInput(wire, stated);
        const ours = outcome(() => validate({ resource, element }));
        const prisms = outcome(() => prismsValidateInput({ resource, element }));
        if ((prisms as { _tag?: string })._tag === "Left") rejected++;
        expect(ours).toEqual(prisms);
      }),
      { numRuns: 2_000 },
    );
    // The requests must include rejected ones, or the comparison proves little.
    expect(rejected).toBeGreaterThan(100);
  });

  // The validation is skipped where no parameter is given and none is required; Prism reads a
  // query or header parameter's name in any case, so a name in other capitals is still given.
  it.for<[string, string, Record<string, string>, Record<string, string>]>([
    ["listItems", "/items", {}, {}],
    ["listItems", "/items", { PAGE_SIZE: "many" }, {}],
    ["listItems", "/items", { Page_Size: "500" }, {}],
    ["listItems", "/items", { unknown: "x" }, {}],
    ["listItems", "/items", {}, { "X-Tenant-Id": "" }],
    ["createItem", "/items", {}, {}],
  ])("finds what Prism finds for %s %s?%j with headers %j", ([id, path, query, headers]) => {
    const resource = operations.find((operation) => operation.iid === id);
    if (!resource) throw new Error(`no operation ${id}`);
    const element = {
      method: resource.method as "get",
      url: { path, query },
      headers: { "x-api-key": "key", ...headers },
    };
    expect(cachedValidateInput()({ resource, element })).toEqual(
      validateInput({ resource, element }),
    );
  });
});

// The body is checked against the schema Prism selects and normalises once per operation and
// media type, without Prism's coercion; headers are read by lower-case name, empty ones absent.
describe("the remembered body and header checks", () => {
  const bodies: unknown[] = [
    { kind: "Person", email: "ada@example.com", name: "Ada" },
    { kind: "Person", email: "ada@example.com", name: 5 },
    { kind: "Robot", email: "not an email" },
    { kind: "Person", email: "ada@example.com", name: "" },
    "kind=Person&email=ada%40example.com",
    [],
    null,
  ];
  const contentTypes = [
    "application/json",
    "application/json; charset=utf-8",
    "*/*",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    undefined,
  ];
  const headerSets: Record<string, string>[] = [
    { "idempotency-key": "3f1c2a9e-6b7d-4e21-9a4f-0c5d8e7b6a13" },
    { "IDEMPOTENCY-KEY": "3f1c2a9e-6b7d-4e21-9a4f-0c5d8e7b6a13", "x-tenant-id": "t1" },
    { "idempotency-key": "" },
    { "idempotency-key": "not a uuid", "X-Tenant-Id": "" },
    {},
  ];

  it("finds what Prism finds for each body, media type and set of headers, asked twice", () => {
    const resource = operations.find((operation) => operation.iid === "createItem");
    if (!resource) throw new Error("no operation createItem");
    const validate = cachedValidateInput();
    let rejected = 0;
    for (const body of bodies) {
      for (const contentType of contentTypes) {
        for (const stated of headerSets) {
          const headers: Record<string, string> = { "x-api-key": "key", ...stated };
          if (contentType !== undefined) {
            headers["content-type"] = contentType;
            headers["content-length"] = "42";
          }
          const element = {
            method: "post" as const,
            url: { path: "/items", query: {} },
            headers,
            body,
          };
          const prisms = outcome(() => prismsValidateInput({ resource, element }));
          if ((prisms as { _tag?: string })._tag === "Left") rejected++;
          expect(outcome(() => validate({ resource, element }))).toEqual(prisms);
          expect(outcome(() => validate({ resource, element }))).toEqual(prisms);
        }
      }
    }
    expect(rejected).toBeGreaterThan(100);
  });
});
