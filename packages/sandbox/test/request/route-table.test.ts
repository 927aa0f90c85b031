// The sandbox answers each operation of the test-mode document (openapi/test-mode.yaml), each by
// the one feature that routes it.
import { listOperations, loadSpec, testModeSpecPath } from "@org/payments-spec";
import { expect, it } from "vitest";
import { routeTable } from "../../src/request/control-request.js";
import { FEATURES } from "../../src/sandbox.js";

it("answers each operation of the document with a route of one feature, and nothing else", () => {
  const testModeOperations = listOperations(loadSpec(testModeSpecPath));
  const operationIds = testModeOperations.map(({ operationId }) => operationId).sort();
  const routed = [...routeTable(FEATURES, true).keys()];
  expect(routed.sort()).toEqual(operationIds);
});
