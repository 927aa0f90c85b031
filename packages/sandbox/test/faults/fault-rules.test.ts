// What the sandbox checks of a fault rule beyond the test-mode document: a status the operation
// declares. Every operation of the API declares a `default` answer, so that any 4xx or 5xx is
// one it declares; an operation that lists its error statuses takes only those.
import { expect, it } from "vitest";
import { ruleRefusal } from "../../src/faults/fault-rules.js";
import { nthDraw } from "../../src/faults/probability.js";

const listing = () => ({ codes: [200, 404, 409], default: false });
const withDefault = () => ({ codes: [200], default: true });

it("takes a status the operation declares, or any error under `default`", () => {
  expect(ruleRefusal({ operation_id: "createCustomer", status: 409 }, listing)).toBeUndefined();
  expect(ruleRefusal({ operation_id: "createCustomer", status: 503 }, withDefault)).toBeUndefined();
  expect(ruleRefusal({ topic: "Ping", delivery: "drop" }, listing)).toBeUndefined();
});

it("refuses one the operation does not declare, naming the field and the statuses it does", () => {
  const refused = ruleRefusal({ operation_id: "createCustomer", status: 503 }, listing);
  expect(refused?.status).toBe(422);
  expect(refused?.body).toMatchObject({
    errors: [
      {
        location: "body",
        field: "status",
        rule: "declared",
        message: "createCustomer does not declare 503; use one it declares (404, 409)",
      },
    ],
  });
});

it("draws the same sequence from a seed at any point, as mulberry32 does", () => {
  // mulberry32(7), drawn in turn.
  let state = 7;
  const inTurn = Array.from({ length: 5 }, () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  });
  expect([1, 2, 3, 4, 5].map((n) => nthDraw(7, n))).toEqual(inTurn);
  expect(nthDraw(7, 3)).not.toBe(nthDraw(8, 3));
});
