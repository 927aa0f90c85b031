// The checks of a profile decided on a partner's evidence. Each says how it was decided and, when
// it did not pass, what is missing, naming the operations, topics or states. A check with no
// evidence at all is not_run, never passed: a new key passes nothing. One rule for what is missing:
// what was seen and fell short (an operation answered only other statuses, resources that stopped
// short of a state) fails a check; what has not happened at all (an operation never called, no
// resource of a kind) leaves it not_run, whatever else the check saw.
import { API_OPERATIONS } from "../generated/api-operations.js";
import type { Evidence, FaultCoverage } from "./evidence.js";
import type { Check, Profile } from "./profile.js";

type CheckStatus = "passed" | "failed" | "not_run";

export interface CheckResult {
  id: string;
  title: string;
  status: CheckStatus;
  /** What is missing (failed, not run), or what showed it (passed), in words. */
  detail: string;
  /** How the check is decided, in words. */
  how: string;
}

export interface Evaluation {
  ready: boolean;
  checks: CheckResult[];
}

export function evaluate(profile: Profile, evidence: Evidence): Evaluation {
  const checks = profile.checks.map((check) => ({
    id: check.id,
    title: check.title,
    ...decide(check, evidence),
  }));
  return { ready: checks.every((check) => check.status === "passed"), checks };
}

type Decision = Omit<CheckResult, "id" | "title">;

const LIVE_ONLY =
  "live traffic shows operations and statuses only; this check is decided in the sandbox";

function decide(check: Check, evidence: Evidence): Decision {
  if (check.operations !== undefined) return operations(check.operations, evidence);
  if (evidence.source === "live")
    return { status: "not_run", detail: LIVE_ONLY, how: howOf(check) };
  if (check.states !== undefined) return states(check.states, evidence);
  if (check.documents_signed !== undefined) return documents(evidence);
  if (check.topics !== undefined) return topics(check.topics, evidence);
  if (check.recovered !== undefined) return recovered(check.recovered, evidence);
  if (check.idempotency !== undefined) return idempotency(check.idempotency, evidence);
  if (check.deprecations !== undefined) return deprecations(evidence);
  return paged(evidence);
}

/** How a check is decided, for the checks live traffic cannot decide. */
function howOf(check: Check): string {
  if (check.states !== undefined) return states(check.states, emptyEvidence()).how;
  if (check.documents_signed !== undefined) return documents(emptyEvidence()).how;
  if (check.topics !== undefined) return topics(check.topics, emptyEvidence()).how;
  if (check.recovered !== undefined) return recovered(check.recovered, emptyEvidence()).how;
  if (check.idempotency !== undefined) return idempotency(check.idempotency, emptyEvidence()).how;
  if (check.deprecations !== undefined) return deprecations(emptyEvidence()).how;
  return paged(emptyEvidence()).how;
}

function emptyEvidence(): Evidence {
  return {
    source: "sandbox",
    coverage: {
      operations: {},
      topics: {},
      states: {
        customer: [],
        identification: [],
        autoramp: [],
        fiat_address: [],
        autoramp_transaction: [],
      },
      faults: [],
    },
    reached: new Map(),
    facts: new Map(),
    signed: new Set(),
    documents: [],
  };
}

/** `Active` of a `customer/Person` in words: "a Person customer". */
function subjectWords(subject: string): string {
  const [kind = "", variant] = subject.split("/");
  const noun = kind.replaceAll("_", " ");
  return variant === undefined
    ? `a ${noun}`
    : `${variant === "Onramp" || variant === "Offramp" ? "an" : "a"} ${variant} ${noun}`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function states(wanted: Record<string, string[]>, evidence: Evidence): Decision {
  const how = `states its resources reached: ${Object.entries(wanted)
    .map(([subject, names]) => `${subjectWords(subject)} reached ${list(names)}`)
    .join("; ")}`;
  const missing: string[] = [];
  let fellShort = false;
  for (const [subject, names] of Object.entries(wanted)) {
    const reached = evidence.reached.get(subject) ?? new Set<string>();
    const lacking = names.filter((name) => !reached.has(name));
    if (lacking.length === 0) continue;
    if (reached.size > 0) fellShort = true;
    const so = reached.size === 0 ? "none exists yet" : `they reached ${list([...reached].sort())}`;
    missing.push(
      `no ${subjectWords(subject).replace(/^an? /, "")} has reached ${list(lacking)} (${so})`,
    );
  }
  if (missing.length === 0) return { status: "passed", detail: "every state reached", how };
  return { status: fellShort ? "failed" : "not_run", detail: `${missing.join("; ")}.`, how };
}

function statusMatches(status: string, wanted: string | number): boolean {
  return typeof wanted === "number" ? status === String(wanted) : status[0] === wanted[0];
}

function operations(wanted: Record<string, string | number>, evidence: Evidence): Decision {
  const how = `operations and the statuses they answered: ${Object.entries(wanted)
    .map(([operation, status]) => `${operation} answered ${status}`)
    .join(", ")}`;
  const missing: string[] = [];
  let fellShort = false;
  for (const [operation, status] of Object.entries(wanted)) {
    const coverage = evidence.coverage.operations[operation];
    const statuses = Object.keys(coverage?.statuses ?? {});
    if (statuses.some((answered) => statusMatches(answered, status))) continue;
    if (statuses.length > 0) fellShort = true;
    missing.push(
      statuses.length === 0
        ? `${operation} was never called`
        : `${operation} answered ${list(statuses.sort())}, never ${status}`,
    );
  }
  if (missing.length === 0)
    return { status: "passed", detail: "every operation answered as asked", how };
  return { status: fellShort ? "failed" : "not_run", detail: `${missing.join("; ")}.`, how };
}

function documents(evidence: Evidence): Decision {
  const how =
    "every document of the partner's (listDocuments) signed by one of its customers (createSigning)";
  const all = evidence.documents ?? [];
  const unsigned = all.filter((id) => !evidence.signed.has(id));
  if (evidence.signed.size === 0) {
    return { status: "not_run", detail: "no document has been signed yet.", how };
  }
  if (unsigned.length === 0)
    return { status: "passed", detail: `all ${all.length} documents signed`, how };
  return { status: "failed", detail: `documents never signed: ${list(unsigned)}.`, how };
}

function topics(wanted: "subscribed" | string[], evidence: Evidence): Decision {
  const all = evidence.coverage.topics;
  const names =
    wanted === "subscribed"
      ? Object.keys(all).filter((topic) => all[topic]?.subscribed === true)
      : wanted;
  const how =
    wanted === "subscribed"
      ? "every topic a webhook subscribes to has a delivery the receiver acknowledged (2xx), and no event's last delivery failed"
      : `each of ${list(wanted)} has a delivery the receiver acknowledged (2xx), and no event's last delivery failed`;
  const delivered = names.some((topic) => (all[topic]?.delivered ?? 0) > 0);
  if (names.length === 0)
    return { status: "not_run", detail: "no webhook subscribes to a topic yet.", how };
  if (!delivered)
    return { status: "not_run", detail: `no event of ${list(names)} delivered yet.`, how };
  const unacknowledged = names.filter((topic) => (all[topic]?.acknowledged ?? 0) === 0);
  const failing = names.filter((topic) => (all[topic]?.failing ?? 0) > 0);
  const missing: string[] = [];
  if (unacknowledged.length > 0) {
    missing.push(
      `never acknowledged: ${list(unacknowledged.map((topic) => `${topic} (${all[topic]?.delivered ?? 0} delivered)`))}`,
    );
  }
  if (failing.length > 0) {
    missing.push(
      `still failing: ${list(failing.map((topic) => `${topic} (${plural(all[topic]?.failing ?? 0, "event")})`))}`,
    );
  }
  if (missing.length === 0)
    return { status: "passed", detail: `acknowledged: ${list(names)}`, how };
  return { status: "failed", detail: `${missing.join("; ")}.`, how };
}

function faultWords(rule: { kind?: string; status?: string | number }): string {
  const kind = rule.kind === undefined ? "a fault" : `a ${rule.kind.replaceAll("_", " ")} fault`;
  return rule.status === undefined ? kind : `${kind} answering ${rule.status}`;
}

function recovered(
  rule: { kind?: string; status?: string | number },
  evidence: Evidence,
): Decision {
  const how = `${faultWords(rule)} rehearsed, then recovered: a POST retried with the same IDEMPOTENCY-KEY until 2xx, a GET repeated until 2xx, a 429's next request after its Retry-After`;
  const matching = evidence.coverage.faults.filter(
    (fault: FaultCoverage) =>
      (rule.kind === undefined || fault.kind === rule.kind) &&
      (rule.status === undefined ||
        (fault.status !== null && statusMatches(String(fault.status), rule.status))),
  );
  if (matching.length === 0) {
    return {
      status: "not_run",
      detail: `no ${faultWords(rule).replace(/^an? /, "")} rehearsed yet (POST /_sandbox/faults arms one).`,
      how,
    };
  }
  const good = matching.find((fault) => fault.recovered);
  if (good !== undefined)
    return {
      status: "passed",
      detail: `recovered from fault ${good.fault_id} on ${good.operation_id}`,
      how,
    };
  return {
    status: "failed",
    detail: `not recovered from: ${list(matching.map((fault) => `${fault.fault_id} on ${fault.operation_id}`))}.`,
    how,
  };
}

function idempotency(
  rule: { key_on_every_post?: true; no_key_reuse?: true },
  evidence: Evidence,
): Decision {
  const how = [
    rule.key_on_every_post && "every POST carried an IDEMPOTENCY-KEY",
    rule.no_key_reuse && "no key was sent again with another body",
  ]
    .filter(Boolean)
    .join(", and ");
  const posts = API_OPERATIONS.filter((operation) => operation.method === "POST").map(
    (operation) => operation.id,
  );
  const posted = posts.some((id) => (evidence.coverage.operations[id]?.calls ?? 0) > 0);
  if (!posted) return { status: "not_run", detail: "no POST made yet.", how };
  const missing: string[] = [];
  const without = [...(evidence.facts.get("post_without_key") ?? new Map<string, number>())];
  if (rule.key_on_every_post && without.length > 0) {
    missing.push(
      `POSTs without a key: ${list(without.map(([operation, n]) => `${operation} (${n})`))}`,
    );
  }
  const reused = [...(evidence.facts.get("key_reused") ?? new Map<string, number>())];
  if (rule.no_key_reuse && reused.length > 0) {
    missing.push(
      `a key sent again with another body: ${list(reused.map(([operation, n]) => `${operation} (${n})`))}`,
    );
  }
  if (missing.length === 0)
    return { status: "passed", detail: "every POST keyed, no key reused", how };
  return { status: "failed", detail: `${missing.join("; ")}.`, how };
}

function paged(evidence: Evidence): Decision {
  const how = "a list operation answered 2xx to a request with a cursor";
  const lists = API_OPERATIONS.filter((operation) => operation.paged).map(
    (operation) => operation.id,
  );
  const read = lists.filter((id) => (evidence.coverage.operations[id]?.calls ?? 0) > 0);
  const past = [...(evidence.facts.get("next_page") ?? new Map<string, number>()).keys()];
  if (past.length > 0)
    return { status: "passed", detail: `read past the first page: ${list(past.sort())}`, how };
  if (read.length === 0) return { status: "not_run", detail: "no list read yet.", how };
  return { status: "failed", detail: `lists read only at their first page: ${list(read)}.`, how };
}

/** One deprecated thing an operation used, as request-counts.ts records it. */
interface DeprecatedFact {
  operation: string;
  what: string;
  sunset?: string;
  replacement?: string;
}

function deprecations(evidence: Evidence): Decision {
  const how =
    "no request used a deprecated operation, parameter or body field (the answer's Deprecation header)";
  const called = Object.values(evidence.coverage.operations).some((coverage) => coverage.calls > 0);
  if (!called) return { status: "not_run", detail: "no API request made yet.", how };
  const used = [...(evidence.facts.get("deprecated") ?? new Map<string, number>())];
  if (used.length === 0) return { status: "passed", detail: "nothing deprecated used", how };
  const words = used.map(([detail, n]) => {
    const fact = JSON.parse(detail) as DeprecatedFact;
    const where = fact.what.startsWith("operation ")
      ? fact.what
      : `${fact.what} of ${fact.operation}`;
    const until =
      fact.sunset === undefined ? "no sunset date given" : `goes away on ${fact.sunset}`;
    const instead = fact.replacement === undefined ? "" : `; use ${fact.replacement} instead`;
    return `${where} (${plural(n, "request")}; ${until}${instead})`;
  });
  return {
    status: "failed",
    detail: `deprecated and still used: ${words.sort().join("; ")}.`,
    how,
  };
}
