// The sandbox answers each operation of the test-mode document (openapi/test-mode.yaml).
import { listOperations, loadSpec, testModeSpecPath } from "@org/payments-spec";
import { expect, it } from "vitest";
import { CONTROL_HANDLERS } from "../src/control/control-routes.js";

it("answers each operation of the document with a handler of its own, and nothing else", () => {
  const testModeOperations = listOperations(loadSpec(testModeSpecPath));
  const operationIds = testModeOperations.map(({ operationId }) => operationId).sort();
  expect(Object.keys(CONTROL_HANDLERS).sort()).toEqual(operationIds);
});
