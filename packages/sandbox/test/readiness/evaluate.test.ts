// The checks of the default profile decided on evidence: a new key passes nothing (not_run, never
// passed), evidence of everything passes everything, and a check that fails says what is missing.
import { describe, expect, it } from "vitest";
import type { ReadinessCount } from "../../src/readiness/index.js";
import {
  defaultProfile,
  evaluate,
  liveEvidence,
  PROFILE_CONTEXT,
  sandboxEvidence,
} from "../../src/readiness/index.js";

const profile = defaultProfile(PROFILE_CONTEXT);
const statuses = (counts: ReadinessCount[], subscribed: string[] = [], documents: string[] = []) =>
  Object.fromEntries(
    evaluate(profile, sandboxEvidence(counts, new Set(subscribed), documents)).checks.map(
      (check) => [check.id, check],
    ),
  );

const c = (kind: ReadinessCount["kind"], name: string, detail = "", n = 1): ReadinessCount => ({
  kind,
  name,
  detail,
  n,
});
const fault = (id: string, kind: string, status: number | null, recovered: boolean) =>
  c(
    "fault",
    id,
    JSON.stringify({ operation_id: "createCustomer", kind, status }),
    recovered ? 2 : 1,
  );

/** Counters of an integration that did everything the default profile asks. */
const everything: ReadinessCount[] = [
  c("state", "customers/Person", "Active"),
  c("state", "customers/Business", "Active"),
  c("state", "customers", "Active"),
  c("call", "createDirectIdentification", "200"),
  c("call", "createLinkIdentification", "201"),
  c("call", "createCustomer", "200", 5),
  c("call", "listCustomers", "200", 2),
  c("call", "getAutorampQuote", "200"),
  c("fact", "document_signed", "d1"),
  c("fact", "document_signed", "d2"),
  c("fact", "next_page", "listCustomers"),
  c("state", "autoramp_transactions/Onramp", "Completed"),
  c("state", "autoramp_transactions/Offramp", "Completed"),
  c("delivered", "CustomerStatus", "", 3),
  c("acknowledged", "CustomerStatus", "", 3),
  fault("f1", "status", 503, true),
  fault("rate_limit", "rate_limit", 429, true),
  fault("f2", "drop_after_commit", null, true),
];

describe("the default profile's checks", () => {
  it("are all not_run for a new key, and it is not ready", () => {
    const verdict = evaluate(profile, sandboxEvidence([], new Set(), ["d1"]));
    expect(verdict.ready).toBe(false);
    expect(verdict.checks.map((check) => check.status)).toEqual(
      verdict.checks.map(() => "not_run"),
    );
    for (const check of verdict.checks) {
      expect(check.detail.length).toBeGreaterThan(0);
      expect(check.how.length).toBeGreaterThan(0);
    }
  });

  it("all pass on evidence of everything", () => {
    const verdict = evaluate(
      profile,
      sandboxEvidence(everything, new Set(["CustomerStatus"]), ["d1", "d2"]),
    );
    expect(verdict.checks.filter((check) => check.status !== "passed")).toEqual([]);
    expect(verdict.ready).toBe(true);
  });

  it("fail naming what is missing", () => {
    const checks = statuses(
      [
        c("state", "customers/Person", "IdentificationRequired"),
        c("call", "createDirectIdentification", "200"),
        c("call", "createCustomer", "200"),
        c("call", "createCustomer", "422"),
        c("fact", "post_without_key", "createCustomer"),
        c("fact", "key_reused", "createAutoramp", 2),
        c("call", "listSignings", "200"),
        c("fact", "document_signed", "d1"),
        c("delivered", "CustomerStatus"),
        c("acknowledged", "CustomerStatus"),
        c("delivered", "TransactionStatus", "", 4),
        c("failing", "w1 e1", "TransactionStatus"),
        fault("f1", "status", 503, false),
      ],
      ["CustomerStatus", "TransactionStatus", "NewAutoramp"],
      ["d1", "d2"],
    );
    expect(checks["person-active"]).toMatchObject({
      status: "failed",
      detail: "no Person customer has reached Active (they reached IdentificationRequired).",
    });
    expect(checks["business-active"]?.status).toBe("not_run");
    // Never called is not run, as in a check that saw nothing else: one rule.
    expect(checks.identifications).toMatchObject({
      status: "not_run",
      detail: "createLinkIdentification was never called.",
    });
    expect(checks["documents-signed"]).toMatchObject({
      status: "failed",
      detail: "documents never signed: d2.",
    });
    expect(checks["webhooks-acknowledged"]?.status).toBe("failed");
    expect(checks["webhooks-acknowledged"]?.detail).toBe(
      "never acknowledged: NewAutoramp (0 delivered) and TransactionStatus (4 delivered); still failing: TransactionStatus (1 event).",
    );
    expect(checks["recovers-5xx"]).toMatchObject({
      status: "failed",
      detail: "not recovered from: f1 on createCustomer.",
    });
    expect(checks["recovers-429"]?.status).toBe("not_run");
    expect(checks["idempotency-keys"]).toMatchObject({
      status: "failed",
      detail:
        "POSTs without a key: createCustomer (1); a key sent again with another body: createAutoramp (2).",
    });
    expect(checks.pagination).toMatchObject({
      status: "failed",
      detail: "lists read only at their first page: listSignings.",
    });
  });

  it("give an operation never called one verdict, not_run, and fail only what fell short", () => {
    const direct = (status: string) => statuses([c("call", "createDirectIdentification", status)]);
    // Link never called: not run beside a Direct that answered as asked…
    expect(direct("200").identifications).toMatchObject({
      status: "not_run",
      detail: "createLinkIdentification was never called.",
    });
    // …and failed only for the Direct that answered otherwise, the never called named with it.
    expect(direct("422").identifications).toMatchObject({
      status: "failed",
      detail:
        "createDirectIdentification answered 422, never 2xx; createLinkIdentification was never called.",
    });
    // States alike: a Business customer not made yet is not run, whatever a Person did.
    const person = statuses([c("state", "customers/Person", "Active")]);
    expect(person["business-active"]?.status).toBe("not_run");
  });

  it("decide only operations on live traffic, the rest not run", () => {
    const verdict = evaluate(
      profile,
      liveEvidence([{ operationId: "getAutorampQuote", status: "200", n: 3 }]),
    );
    const byId = Object.fromEntries(verdict.checks.map((check) => [check.id, check]));
    expect(byId.quote?.status).toBe("passed");
    expect(byId.identifications?.status).toBe("not_run");
    expect(byId["person-active"]).toMatchObject({ status: "not_run" });
    expect(byId["person-active"]?.detail).toContain("live traffic");
    expect(verdict.ready).toBe(false);
  });
});

describe("the check that nothing deprecated is used", () => {
  const used = (fields: object, n: number) =>
    c("fact", "deprecated", JSON.stringify({ operation: "createGadget", ...fields }), n);

  it("names each deprecated thing used, with its sunset and replacement when given", () => {
    const checks = statuses([
      c("call", "createGadget", "200", 3),
      used(
        { what: "operation createGadget", sunset: "2027-06-30", replacement: "`createWidget`" },
        3,
      ),
      used({ what: "field `legacy_code`" }, 1),
    ]);
    expect(checks["no-deprecated"]).toMatchObject({
      status: "failed",
      detail:
        "deprecated and still used: field `legacy_code` of createGadget (1 request; no sunset date given); operation createGadget (3 requests; goes away on 2027-06-30; use `createWidget` instead).",
    });
  });

  it("passes once a request is made and nothing deprecated was used", () => {
    const checks = statuses([c("call", "createCustomer", "200")]);
    expect(checks["no-deprecated"]).toMatchObject({ status: "passed" });
  });
});
