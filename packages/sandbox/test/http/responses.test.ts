// Every operation answered by the sandbox matches the spec's 200 response schema.

import {
  validRequest as exampleRequest,
  operations,
  responseProblems,
  type SpecRequest,
  send,
} from "@org/payments-testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpSandbox, startSandbox } from "../support/sandbox.js";

/**
 * The spec's example request, with a key of its own (the sandbox refuses a key used for another
 * request), and a quote with its (optional) amount: the sandbox prices a quote only with one.
 */
function validRequest(operationId: string): SpecRequest {
  const request = exampleRequest(operationId);
  if ("IDEMPOTENCY-KEY" in request.headers)
    request.headers["IDEMPOTENCY-KEY"] = crypto.randomUUID();
  if (operationId === "getAutorampQuote") request.query.amount_in = "1000.00";
  return request;
}

let sandbox: HttpSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());

describe("sandbox answers match the spec's response schemas", () => {
  it.each(operations.map((entry) => entry.operationId))("%s", async (operationId) => {
    const response = await send(sandbox.url, validRequest(operationId));
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.contentType).toMatch(/^application\/json/);
    expect(responseProblems(operationId, response.body)).toEqual([]);
  });

  it("a list answers items that were created, still schema-valid", async () => {
    await send(sandbox.url, validRequest("createCustomer"));
    const response = await send(sandbox.url, validRequest("listCustomers"));
    expect((response.body as { items: unknown[] }).items.length).toBeGreaterThanOrEqual(2);
    expect(responseProblems("listCustomers", response.body)).toEqual([]);
  });

  it("an operation on a customer that does not exist answers 404 with a problem body", async () => {
    const request = validRequest("createDirectIdentification");
    request.pathParams.id = crypto.randomUUID();
    const response = await send(sandbox.url, request);
    expect(response.status).toBe(404);
    expect(response.contentType).toBe("application/json");
    expect(response.body).toMatchObject({ errors: [{ location: "path", field: "id" }] });
  });

  it("still validates requests with Prism", async () => {
    const request = validRequest("listCustomers");
    request.query.page_size = "101";
    const response = await send(sandbox.url, request);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ errors: [{ field: "page_size", rule: "maximum" }] });
  });
});
