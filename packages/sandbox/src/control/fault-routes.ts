// The test-mode routes of failure rehearsal: arm, list and disarm fault rules, set the rate limit,
// list the request log. The engine has validated each body against the test-mode document, which
// states every rule it can (one of operation_id and topic, the effects of each, the caps); what
// is left is what only the API's document knows: the statuses an operation declares.
import { randomUUID } from "node:crypto";
import { type Answer, notFound, ok } from "../answer/answer.js";
import { armedRuleOf, type FaultRule, listedFault, ruleRefusal } from "../faults/index.js";
import type { components } from "../generated/test-mode.js";
import { type RequestQuery, requestPage } from "../requests/request-page.js";
import type { ControlRequest, ControlServices } from "./control-services.js";

type Schemas = components["schemas"];
type Handler = (services: ControlServices, request: ControlRequest) => Promise<Answer>;

export const FAULT_HANDLERS: Readonly<Record<string, Handler>> = {
  armFault: async (services, { body }) => {
    const asked = body as Schemas["NewFault"];
    const refusal = ruleRefusal(asked, services.declaredStatuses);
    if (refusal !== undefined) return refusal;
    const byChance = asked.probability !== undefined;
    const rule: FaultRule = {
      id: randomUUID(),
      ...asked,
      ...(!byChance && { times: asked.times ?? 1 }),
      created_at: services.clock.now().toISOString(),
    };
    const remaining = byChance ? null : (rule.times ?? 1);
    await services.store.transaction(async (tx) => {
      await tx.armFault({ id: rule.id, rule: JSON.stringify(rule), remaining, draws: 0 });
      await services.faults.reload(tx);
    });
    return { status: 201, body: listedFault({ rule, remaining }) };
  },
  listFaults: (services) =>
    services.store.transaction(async (tx) => {
      await services.faults.reload(tx);
      return ok({ items: services.faults.rules.map(listedFault) });
    }),
  disarmFault: (services, { params }) =>
    services.store.transaction(async (tx) => {
      const id = params.id ?? "";
      const armed = (await tx.armed()).faults.find((fault) => fault.id === id);
      if (armed === undefined || !(await tx.disarmFault(id))) {
        return notFound(
          "path",
          "id",
          `no armed fault rule ${id} (a rule whose times are used up is disarmed)`,
        );
      }
      await services.faults.reload(tx);
      return ok(listedFault(armedRuleOf(armed)));
    }),
  setRateLimit: (services, { body }) =>
    services.store.transaction(async (tx) => {
      const { requests_per_second: perSecond, burst } = body as Schemas["RateLimit"];
      if (perSecond === null) {
        await tx.setRateLimit(undefined);
        await services.faults.reload(tx);
        return ok({ requests_per_second: null, burst: null });
      }
      const setting = { requests_per_second: perSecond, burst: burst ?? perSecond };
      await tx.setRateLimit({
        rule: JSON.stringify(setting),
        intervalUs: Math.round(1e6 / perSecond),
        burst: setting.burst,
      });
      await services.faults.reload(tx);
      return ok(setting);
    }),
  listRequests: async (services, { query }) => {
    await services.flushRequests();
    return services.store.transaction((tx) => requestPage(tx, query as RequestQuery));
  },
};
