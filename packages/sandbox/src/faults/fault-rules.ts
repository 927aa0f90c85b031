// A fault rule as the test-mode document describes it (NewFault, Fault), and what the sandbox
// checks of one beyond the document: that its `status` is one its operation declares.
import type { Operations } from "@org/payments-engine";
import { type Answer, problemAnswer } from "../answers/answer.js";
import type { Schemas } from "../test-mode/index.js";
import type { StoredFault } from "./fault-rows.js";

/** A rule as armed: the body the document admitted, its id and when it was armed. */
export type FaultRule = Omit<Schemas["Fault"], "remains">;

/** An armed rule as a process knows it. */
export interface ArmedRule {
  rule: FaultRule;
  /** What remains of its `times`; null for a rule by probability. */
  remaining: number | null;
}

/** The rule as GET /_sandbox/faults lists it. */
export function listedFault({ rule, remaining }: ArmedRule): Schemas["Fault"] {
  return { ...rule, remains: remaining };
}

export function armedRuleOf(stored: StoredFault): ArmedRule {
  return { rule: JSON.parse(stored.rule) as FaultRule, remaining: stored.remaining };
}

/**
 * The statuses an operation declares: its error statuses, or every 4xx and 5xx when it declares a
 * `default` answer. Undefined for an operation the sandbox does not know.
 */
export type DeclaredStatuses = (operationId: string) => { codes: number[]; default: boolean };

/** Every operation's declared statuses, from the API's document. */
export function declaredStatusesOf(operations: Operations): DeclaredStatuses {
  return (operationId) => {
    const responses =
      operations.find((operation) => operation.iid === operationId)?.responses ?? [];
    return {
      codes: responses.map((response) => Number(response.code)).filter(Number.isInteger),
      default: responses.some((response) => response.code === "default"),
    };
  };
}

/** The refusal of a rule the document admits but the sandbox cannot apply; undefined when it can. */
export function ruleRefusal(
  rule: Schemas["NewFault"],
  declared: DeclaredStatuses,
): Answer | undefined {
  if (rule.operation_id === undefined || rule.status === undefined) return undefined;
  const statuses = declared(rule.operation_id);
  if (statuses.default || statuses.codes.includes(rule.status)) return undefined;
  const listed = statuses.codes.filter((code) => code >= 400);
  return problemAnswer(422, "invalid-request", "Invalid request", [
    {
      location: "body",
      field: "status",
      rule: "declared",
      message: `${rule.operation_id} does not declare ${rule.status}; use one it declares (${listed.join(", ") || "it declares no error status"})`,
    },
  ]);
}
