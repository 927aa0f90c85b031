// Bodies nested far past any limit, and every operation that takes a body: the API's (from its
// spec) and the test mode's POST routes. Each must answer them with a prompt 4xx problem.
import { expect } from "vitest";
import { MAX_JSON_DEPTH } from "../../src/http/json-depth.js";
import { API_KEY, operations, type SpecRequest, send, validRequest } from "./spec-requests.js";

/** What a fuzzer sends: JSON that is valid, and deeper than any stack. */
export const DEEP_BODIES: Array<[string, string]> = [
  ["a 100,000-deep array", `${"[".repeat(100_000)}${"]".repeat(100_000)}`],
  ["a 50,000-deep object", `${'{"a":'.repeat(50_000)}1${"}".repeat(50_000)}`],
];

/** The test mode's POST routes, with an id where the route takes one. */
const TEST_MODE_POSTS = [
  "/_sandbox/clock/advance",
  "/_sandbox/customers/{id}/status",
  "/_sandbox/identifications/{id}/status",
  "/_sandbox/autoramps/{id}/status",
  "/_sandbox/addresses/fiat/{id}/status",
  "/_sandbox/autoramp-transactions/{id}/status",
  "/_sandbox/autoramps/{id}/deposits",
  "/_sandbox/customers/{id}/fiat-addresses",
  "/_sandbox/webhooks",
  "/_sandbox/events/{id}/redeliver",
  "/_sandbox/rates",
  "/_sandbox/quotes/verify",
  "/_sandbox/reset",
];

/** Every operation with a body, as a valid request whose body is still to be set. */
export function operationsWithBodies(): Array<[string, SpecRequest]> {
  const api = operations
    .filter((entry) => entry.operation.requestBody !== undefined)
    .map((entry): [string, SpecRequest] => {
      const request = validRequest(entry.operationId);
      return [`${request.method} ${entry.path}`, request];
    });
  const testMode = TEST_MODE_POSTS.map((path): [string, SpecRequest] => [
    `POST ${path}`,
    {
      operationId: "",
      method: "POST",
      path,
      pathParams: { id: crypto.randomUUID() },
      query: {},
      headers: { "X-API-Key": API_KEY },
    },
  ]);
  return [...api, ...testMode];
}

/**
 * Sends `text` to every operation with a body: each answers a 400 problem that names the nesting
 * limit (send() fails a request that gets no answer in time).
 */
export async function expectEveryOperationRefuses(baseUrl: string, text: string): Promise<void> {
  for (const [name, request] of operationsWithBodies()) {
    const headers = { ...request.headers, "Content-Type": "application/json" };
    const answer = await send(baseUrl, { ...request, headers, rawBody: text });
    expect({
      name,
      status: answer.status,
      contentType: answer.contentType,
      body: answer.body,
    }).toMatchObject({
      name,
      status: 400,
      contentType: "application/json",
      body: {
        type: "urn:org:payments-mock:problem:too-deep",
        errors: [
          {
            location: "body",
            rule: "maxDepth",
            message: expect.stringContaining(`at most ${MAX_JSON_DEPTH}`),
          },
        ],
      },
    });
  }
}
