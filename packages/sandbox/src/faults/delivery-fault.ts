// What the armed rules do to a webhook delivery of a topic, decided as the event is queued (in the
// change's transaction, where the rule is claimed): sent twice with one id, not sent (the event log
// records it, and it can be redelivered), or sent later on the sandbox clock.
import type { ArmedFaults } from "./armed-faults.js";
import type { FaultRows } from "./fault-rows.js";
import { nthDraw } from "./probability.js";

export interface DeliveryFault {
  faultId: string;
  delivery?: "duplicate" | "drop";
  delaySeconds?: number;
}

/** The first armed rule of the topic that matches the event and is claimed; undefined when none. */
export async function deliveryFault(
  tx: FaultRows,
  armed: ArmedFaults,
  topic: string,
  customerId: string | null,
): Promise<DeliveryFault | undefined> {
  for (const { rule } of armed.rules) {
    if (rule.topic !== topic) continue;
    const match = rule.match;
    if (match?.customer_id !== undefined && match.customer_id !== customerId) continue;
    // An event has no sub-partner: a rule that asks for one matches none (it is refused at arming).
    if (match?.sub_partner_id !== undefined) continue;
    const claim = await tx.claimFault(rule.id);
    if (claim === undefined || claim.remaining === 0) armed.drop(rule.id);
    if (claim === undefined) continue;
    if (rule.probability !== undefined && nthDraw(rule.seed ?? 0, claim.draw) >= rule.probability) {
      continue;
    }
    return {
      faultId: rule.id,
      ...(rule.delivery !== undefined && { delivery: rule.delivery }),
      ...(rule.delay_seconds !== undefined && { delaySeconds: rule.delay_seconds }),
    };
  }
  return undefined;
}
