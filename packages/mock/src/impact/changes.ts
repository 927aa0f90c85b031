// The changes from the API the sandbox serves to another version of its document that touch what
// one partner used: the operations it called, the statuses they answered, the webhook topics it
// received. The changes are the guard's (@org/payments-spec/diff), told for consumers as its
// changelog tells them; breaking ones come first.
import { listOperations, type OpenApiDocument } from "@org/payments-spec";
import {
  actionOf,
  deprecationAction,
  diffSpecs,
  fieldOf,
  kindOf,
  RULES,
  type SpecChange,
  sunsetIn,
} from "@org/payments-spec/diff";

/** What the partner used, as its readiness report's coverage counts it. */
export interface Usage {
  operations: Record<string, { calls: number; statuses: Record<string, number> }>;
  topics: Record<string, { subscribed: boolean; delivered: number }>;
}

/** One change that touches what the partner used. */
export interface ImpactChange {
  breaking: boolean;
  kind: "added" | "changed" | "deprecated" | "removed";
  /** The guard's rule (the spec package's README explains each). */
  rule: string;
  /** The operation's id, when the change is an operation's. */
  operation?: string;
  /** Where: the operation's label and the place in it. */
  where: string;
  field?: string;
  /** What changed, in words. */
  summary: string;
  /** What the partner does about it, when it has to do something. */
  action?: string;
  /** What of the partner's it touches, in words. */
  used: string;
}

/** The changes from `current` to `next` that touch `usage`, breaking first, then deprecations. */
export function impactOf(
  current: OpenApiDocument,
  next: OpenApiDocument,
  usage: Usage,
): ImpactChange[] {
  const diff = diffSpecs(current, next);
  const ids = operationIds(current, next);
  const touched: ImpactChange[] = [];
  for (const change of [...diff.breaking, ...diff.additions]) {
    const used = usedBy(change, ids.get(change.operation), usage);
    if (used !== undefined) touched.push(told(change, ids.get(change.operation), used));
  }
  const rank = (change: ImpactChange) =>
    change.breaking ? 0 : change.kind === "deprecated" ? 1 : 2;
  return touched.sort((a, b) => rank(a) - rank(b));
}

/** Each operation's id by its label in the guard's report (`id (METHOD /path)`). */
function operationIds(...docs: OpenApiDocument[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const doc of docs) {
    for (const entry of listOperations(doc)) {
      const route = `${entry.method.toUpperCase()} ${entry.path}`;
      if (entry.operationId) ids.set(`${entry.operationId} (${route})`, entry.operationId);
    }
  }
  return ids;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/**
 * What of the partner's a change touches, or undefined: a topic it received or subscribes to that
 * the change names; a response status its calls got (a response change of another status
 * touches nobody who never got it); any other change of an operation it called; a change of the
 * servers once it called anything.
 */
function usedBy(change: SpecChange, operationId: string | undefined, usage: Usage) {
  const text = `${change.location} ${change.message}`;
  const topic = Object.entries(usage.topics).find(
    ([name, seen]) =>
      (seen.subscribed || seen.delivered > 0) && new RegExp(`\\b${name}\\b`).test(text),
  );
  if (topic !== undefined) return `topic ${topic[0]}`;
  const calls = Object.values(usage.operations).reduce((sum, used) => sum + used.calls, 0);
  if (operationId === undefined) return calls > 0 ? "every call (the API's servers)" : undefined;
  const used = usage.operations[operationId];
  if (used === undefined || used.calls === 0) return undefined;
  const response = /^response (\S+)/.exec(change.location)?.[1];
  if (response === undefined || response === "default") {
    return `${operationId} (${plural(used.calls, "call")})`;
  }
  const got = Object.keys(used.statuses).filter((status) =>
    /^\dXX$/i.test(response) ? status[0] === response[0] : status === response,
  );
  if (got.length === 0) return undefined;
  const n = got.reduce((sum, status) => sum + (used.statuses[status] ?? 0), 0);
  return `${operationId} answering ${got.sort().join(", ")} (${plural(n, "call")})`;
}

function told(change: SpecChange, operationId: string | undefined, used: string): ImpactChange {
  const breaking = RULES[change.rule]?.breaking ?? false;
  const kind = kindOf(change.rule);
  const field = fieldOf(change.location);
  const summary = change.message.split("; ")[0] ?? change.message;
  const action = breaking
    ? actionOf(change.rule, field, summary)
    : kind === "deprecated"
      ? deprecationAction(field, sunsetIn(change.message))
      : undefined;
  return {
    breaking,
    kind,
    rule: change.rule,
    ...(operationId !== undefined && { operation: operationId }),
    where: change.where,
    ...(field !== undefined && { field }),
    summary,
    ...(action !== undefined && { action }),
    used,
  };
}
