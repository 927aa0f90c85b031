// What the armed rules do to one API request, decided at the start of its transaction, before its
// idempotency key is claimed: the first rule of its operation that matches and is claimed. A
// status or a drop before commit answers instead of the operation (the transaction then commits
// the claim alone); a delay and a drop after commit act on the operation's answer.
import statuses from "statuses";
import { type Answer, problemAnswer } from "../answers/answer.js";
import type { ArmedFaults } from "./armed-faults.js";
import type { FaultRows } from "./fault-rows.js";
import type { FaultRule } from "./fault-rules.js";
import { nthDraw } from "./probability.js";

/** What the request is, as a rule's `match` reads it. */
export interface RequestFacts {
  operationId: string;
  customerId: string | undefined;
  scope: string | undefined;
}

/** What a fault rule (or the rate limit) did to a request. */
export type FaultKind =
  | "status"
  | "delay"
  | "drop_before_commit"
  | "drop_after_commit"
  | "rate_limit";

/** What acted on a request, for its record. */
export interface FaultHit {
  faultId: string | null;
  kind: FaultKind;
}

/** What the rate limit and the faults decided for a request: nothing, when empty. */
export interface Verdict {
  /** The answer instead of the operation's. */
  answer?: Answer;
  /** How long the answer waits. */
  delayMs?: number;
  /** The operation's answer is not sent: the connection closes. */
  dropAfterCommit?: boolean;
  /** Sent with the answer (the rate limit's). */
  headers?: Record<string, string>;
  hit?: FaultHit;
}

/** The verdict of the first rule that acts on the request; undefined when none does. */
export async function faultVerdict(
  tx: FaultRows,
  armed: ArmedFaults,
  facts: RequestFacts,
): Promise<Verdict | undefined> {
  for (const { rule } of armed.rules) {
    if (rule.operation_id !== facts.operationId || !matches(rule, facts)) continue;
    const claim = await tx.claimFault(rule.id);
    if (claim === undefined || claim.remaining === 0) armed.drop(rule.id);
    if (claim === undefined) continue;
    if (rule.probability !== undefined && nthDraw(rule.seed ?? 0, claim.draw) >= rule.probability) {
      continue;
    }
    return effectOf(rule);
  }
  return undefined;
}

function matches(rule: FaultRule, facts: RequestFacts): boolean {
  const match = rule.match;
  if (match === undefined) return true;
  if (match.customer_id !== undefined && match.customer_id !== facts.customerId) return false;
  if (match.sub_partner_id !== undefined && match.sub_partner_id !== facts.scope) return false;
  return true;
}

function effectOf(rule: FaultRule): Verdict {
  const delayMs = rule.delay_ms;
  if (rule.status !== undefined) {
    return {
      answer: statusAnswer(rule, rule.status),
      ...(delayMs !== undefined && { delayMs }),
      hit: { faultId: rule.id, kind: "status" },
    };
  }
  if (rule.drop === "before_commit") {
    return {
      answer: { status: 0, body: undefined, drop: true },
      ...(delayMs !== undefined && { delayMs }),
      hit: { faultId: rule.id, kind: "drop_before_commit" },
    };
  }
  if (rule.drop === "after_commit") {
    return {
      dropAfterCommit: true,
      ...(delayMs !== undefined && { delayMs }),
      hit: { faultId: rule.id, kind: "drop_after_commit" },
    };
  }
  return { delayMs, hit: { faultId: rule.id, kind: "delay" } };
}

/** The problem a status rule answers: shaped as every error of the sandbox, naming the rule. */
function statusAnswer(rule: FaultRule, status: number): Answer {
  const answer = problemAnswer(status, "fault", statuses.message[status] ?? `HTTP ${status}`, [
    {
      location: "route",
      field: "",
      rule: "fault",
      message: `the test-mode fault ${rule.id} answers ${status} to ${rule.operation_id}; nothing was changed`,
    },
  ]);
  return rule.retry_after === undefined
    ? answer
    : { ...answer, headers: { "retry-after": String(rule.retry_after) } };
}
