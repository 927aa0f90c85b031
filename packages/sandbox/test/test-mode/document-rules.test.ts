// The rules the control routes leave to the test-mode document are the sandbox's own: its enums
// are the lifecycles' states and outcomes, so that the document refuses exactly what the sandbox
// cannot do.
import { expect, test } from "vitest";
import document from "../../src/generated/test-mode.json" with { type: "json" };
import {
  AUTORAMP,
  CUSTOMER,
  FIAT_ADDRESS,
  IDENTIFICATION,
  type Lifecycle,
  outcomesOf,
  TRANSACTION,
} from "../../src/lifecycle/lifecycles.js";

type Schema = { $ref?: string; enum?: string[]; properties?: Record<string, Schema> };
const schemas = document.components.schemas as Record<string, Schema>;

/** The schema, or the one its local `$ref` names. */
function resolved(schema: Schema | undefined): Schema | undefined {
  const name = schema?.$ref?.replace("#/components/schemas/", "");
  return name === undefined ? schema : schemas[name];
}

test.each([
  ["CustomerStatusChange", CUSTOMER],
  ["IdentificationStatusChange", IDENTIFICATION],
  ["AutorampStatusChange", AUTORAMP],
  ["FiatAddressStatusChange", FIAT_ADDRESS],
] as Array<[string, Lifecycle]>)("%s takes the lifecycle's states", (name, lifecycle) => {
  const status = resolved(schemas[name]?.properties?.status);
  expect(status?.enum).toEqual([...lifecycle.states]);
});

test("a transaction's status is a state of its lifecycle unless forced", () => {
  const change = schemas.AutorampTransactionStatusChange as Schema & {
    if?: unknown;
    else?: Schema;
  };
  expect(change.if).toEqual({ required: ["force"], properties: { force: { const: true } } });
  expect(resolved(change.else?.properties?.status)?.enum).toEqual([...TRANSACTION.states]);
});

test("a deposit's outcomes are the transaction's endings and their words", () => {
  const outcome = schemas.Deposit?.properties?.outcome;
  expect(outcome?.enum).toEqual([
    "Completed",
    ...outcomesOf(TRANSACTION),
    "completed",
    "rejected",
    "failed",
  ]);
  expect(schemas.Deposit).toMatchObject({ not: { required: ["currency", "source_currency"] } });
});

test("a fiat address's outcomes are its lifecycle's", () => {
  expect(schemas.NewFiatAddress?.properties?.outcome?.enum).toEqual(outcomesOf(FIAT_ADDRESS));
});
