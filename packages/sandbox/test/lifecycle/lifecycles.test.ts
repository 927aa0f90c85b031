// The sandbox's lifecycles as data: consistent with the spec's enums, every topic caused by
// something, walks along legal paths only.
import {
  AUTORAMP_STATUSES,
  CUSTOMER_STATUSES,
  FIAT_ADDRESS_STATUSES,
  IDENTIFICATION_STATUSES,
  WEBHOOK_TOPICS,
} from "@org/payments-types";
import { describe, expect, it } from "vitest";
import {
  AUTORAMP,
  CUSTOMER,
  FIAT_ADDRESS,
  IDENTIFICATION,
  LIFECYCLES,
  lifecycleDiagram,
  outcomesOf,
  pathBetween,
  reachableFrom,
  TRANSACTION,
  TRANSACTION_STATES,
  timedTransition,
} from "../../src/lifecycle/lifecycles.js";

describe("the sandbox's lifecycles", () => {
  it("use the spec's status enums, and name Pending and FundsReviewInProgress for transactions", () => {
    expect(CUSTOMER.states).toEqual(CUSTOMER_STATUSES);
    expect(IDENTIFICATION.states).toEqual(IDENTIFICATION_STATUSES);
    expect(AUTORAMP.states).toEqual(AUTORAMP_STATUSES);
    expect(FIAT_ADDRESS.states).toEqual(FIAT_ADDRESS_STATUSES);
    expect(TRANSACTION.states).toContain("FundsReviewInProgress");
    expect(Object.values(TRANSACTION_STATES)).toContain("Pending");
  });

  it.each(LIFECYCLES.map((lifecycle) => [lifecycle.resource, lifecycle] as const))(
    "%s: every transition and initial state is one of its states, every timed one has a time",
    (_, lifecycle) => {
      for (const { state } of lifecycle.initial) expect(lifecycle.states).toContain(state);
      for (const transition of lifecycle.transitions) {
        expect(lifecycle.states).toContain(transition.from);
        expect(lifecycle.states).toContain(transition.to);
        if (transition.cause === "time") expect(transition.afterSeconds).toBeGreaterThan(0);
        else expect(transition.afterSeconds).toBeUndefined();
      }
      // Where time may take several ways out of a state, exactly one is the default.
      for (const state of lifecycle.states) {
        const timed = lifecycle.transitions.filter((t) => t.from === state && t.cause === "time");
        if (timed.length > 0) expect(timed.filter((t) => !t.onlyAsOutcome)).toHaveLength(1);
      }
    },
  );

  it("give every webhook topic a cause: a creation, a status change, an address, a ping", () => {
    const caused = new Set([
      ...LIFECYCLES.flatMap((lifecycle) => [lifecycle.createdTopic, lifecycle.statusTopic]),
      // cascades.ts and the crypto address registrations send it; ping sends Ping.
      "DepositAddressCreated",
      "Ping",
    ]);
    expect([...caused].sort()).toEqual([...WEBHOOK_TOPICS].sort());
  });

  it("walk the shortest legal path, and nowhere else", () => {
    expect(pathBetween(IDENTIFICATION, "Pending", "Approved")).toEqual([
      "Processed",
      "PendingReview",
      "Approved",
    ]);
    expect(pathBetween(CUSTOMER, "SigningsRequired", "Active")).toEqual([
      "IdentificationRequired",
      "Active",
    ]);
    expect(pathBetween(IDENTIFICATION, "Approved", "Pending")).toBeUndefined();
    expect(reachableFrom(IDENTIFICATION, "Approved")).toEqual(["Expired"]);
    expect(reachableFrom(IDENTIFICATION, "Declined")).toEqual([]);
    expect(reachableFrom(TRANSACTION, "PayoutInProgress")).toEqual(["Completed", "PayoutFailed"]);
  });

  it("take the default timed transition unless the outcome names another", () => {
    expect(timedTransition(IDENTIFICATION, "PendingReview", undefined)?.to).toBe("Approved");
    expect(timedTransition(IDENTIFICATION, "PendingReview", "Declined")?.to).toBe("Declined");
    expect(timedTransition(IDENTIFICATION, "Pending", "Declined")?.to).toBe("Processed");
    expect(timedTransition(TRANSACTION, "Completed", undefined)).toBeUndefined();
    expect(outcomesOf(TRANSACTION)).toEqual(["FundsRejected", "PayoutFailed"]);
  });

  it("draw a Mermaid state diagram with every transition", () => {
    const diagram = lifecycleDiagram(IDENTIFICATION);
    expect(diagram.split("\n")[0]).toBe("stateDiagram-v2");
    expect(diagram).toContain("PendingReview --> Declined: time after 3 min, ");
    expect(diagram.split("\n")).toHaveLength(
      1 + IDENTIFICATION.initial.length + IDENTIFICATION.transitions.length,
    );
    expect(diagram).not.toMatch(/["{};]/);
  });
});
