// Bodies nested far past any limit, and every operation that takes a body: the API's and the test
// mode's, each from its OpenAPI document. Each must answer them with a prompt 4xx problem.

import {
  listOperations,
  loadSpec,
  type OperationEntry,
  testModeSpecPath,
} from "@org/payments-spec";
import { expect } from "vitest";
import { API_KEY, operations, type SpecRequest, send, validRequest } from "./spec-requests.ts";

/** What a fuzzer sends: JSON that is valid, and deeper than any stack. */
export const DEEP_BODIES: Array<[string, string]> = [
  ["a 100,000-deep array", `${"[".repeat(100_000)}${"]".repeat(100_000)}`],
  ["a 50,000-deep object", `${'{"a":'.repeat(50_000)}1${"}".repeat(50_000)}`],
];

/** An operation that declares a body, or whose method sends one. */
const takesBody = (entry: OperationEntry) =>
  entry.operation.requestBody !== undefined || ["post", "put", "patch"].includes(entry.method);

/** Every operation with a body, as a valid request whose body is still to be set. */
function operationsWithBodies(): Array<[string, SpecRequest]> {
  const api = operations.filter(takesBody).map((entry): [string, SpecRequest] => {
    const request = validRequest(entry.operationId);
    return [`${request.method} ${entry.path}`, request];
  });
  // The test mode's: each route of its document that takes a body, any id in its path.
  const testMode = listOperations(loadSpec(testModeSpecPath))
    .filter(takesBody)
    .map((entry): [string, SpecRequest] => [
      `${entry.method.toUpperCase()} ${entry.path}`,
      {
        operationId: entry.operationId,
        method: entry.method.toUpperCase(),
        path: entry.path,
        pathParams: Object.fromEntries(
          entry.parameters.filter((p) => p.in === "path").map((p) => [p.name, crypto.randomUUID()]),
        ),
        query: {},
        headers: { "X-API-Key": API_KEY },
      },
    ]);
  return [...api, ...testMode];
}

/**
 * Sends `text` to every operation with a body: each answers a 400 problem that names the nesting
 * limit, `maxDepth` (send() fails a request that gets no answer in time).
 */
export async function expectEveryOperationRefuses(
  baseUrl: string,
  text: string,
  maxDepth: number,
): Promise<void> {
  const all = operationsWithBodies();
  // Both documents were read: the list holds the API's and the test mode's operations.
  expect(all.map(([name]) => name)).toEqual(
    expect.arrayContaining(["POST /webhooks/{id}/ping", "POST /_sandbox/clock/advance"]),
  );
  for (const [name, request] of all) {
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
            message: expect.stringContaining(`at most ${maxDepth}`),
          },
        ],
      },
    });
  }
}
