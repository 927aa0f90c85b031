// The fault rules' test-mode routes: arm, list and disarm. The engine has validated each body
// against the test-mode document, which states every rule it can (one of operation_id and topic,
// the effects of each, the caps); what is left is what only the API's document knows: the
// statuses an operation declares.
import { quoted } from "@org/payments-engine";
import { notFound, ok } from "../answers/answer.js";
import type { Clock } from "../clock/index.js";
import type { Routes, Schemas, Transactions } from "../test-mode/index.js";
import type { ArmedFaults } from "./armed-faults.js";
import type { FaultRows } from "./fault-rows.js";
import {
  armedRuleOf,
  type DeclaredStatuses,
  type FaultRule,
  listedFault,
  ruleRefusal,
} from "./fault-rules.js";

/** What the fault routes are handed, for the caller's partner. */
export interface FaultContext {
  store: Transactions<FaultRows>;
  clock: Clock;
  /** The partner's armed rules and rate limit, as this process knows them. */
  faults: ArmedFaults;
  /** The statuses each operation of the API declares. */
  declaredStatuses: DeclaredStatuses;
}

export const FAULT_ROUTES: Routes<FaultContext> = {
  armFault: async ({ store, clock, faults, declaredStatuses }, { body }) => {
    const asked = body as Schemas["NewFault"];
    const refusal = ruleRefusal(asked, declaredStatuses);
    if (refusal !== undefined) return refusal;
    const byChance = asked.probability !== undefined;
    const rule: FaultRule = {
      id: crypto.randomUUID(),
      ...asked,
      ...(!byChance && { times: asked.times ?? 1 }),
      created_at: clock.now().toISOString(),
    };
    const remaining = byChance ? null : (rule.times ?? 1);
    await store.transaction(async (tx) => {
      await tx.armFault({ id: rule.id, rule: JSON.stringify(rule), remaining, draws: 0 });
      await faults.reload(tx);
    });
    return { status: 201, body: listedFault({ rule, remaining }) };
  },
  listFaults: ({ store, faults }) =>
    store.transaction(async (tx) => {
      await faults.reload(tx);
      return ok({ items: faults.rules.map(listedFault) });
    }),
  disarmFault: ({ store, faults }, { params }) =>
    store.transaction(async (tx) => {
      const id = params.id ?? "";
      const armed = (await tx.armed()).faults.find((fault) => fault.id === id);
      if (armed === undefined || !(await tx.disarmFault(id))) {
        return notFound(
          "path",
          "id",
          `no armed fault rule ${quoted(id)} (a rule whose times are used up is disarmed)`,
        );
      }
      await faults.reload(tx);
      return ok(listedFault(armedRuleOf(armed)));
    }),
};
