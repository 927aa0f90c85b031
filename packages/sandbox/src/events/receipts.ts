// POST /_sandbox/events/receipts: what a partner's receiver answered to events that reached it
// another way than a webhook delivery (payments-mock listen forwards them from the stream). Each
// counts in the readiness report as a delivery attempt does: delivered, and acknowledged when the
// receiver answered 2xx, under the event's topic as the partner's log holds it (found by its
// cursor, and its id, which must be the event's there).
import type { components } from "../generated/test-mode.js";
import type { EventRows } from "./event-rows.js";

/** What a receiver answered to one event, as the test-mode document's `Receipt` says. */
type EventReceipt = components["schemas"]["Receipt"];

/** Counts the receipts; resolves to how many were counted and the ids the log does not hold. */
export async function recordReceipts(
  tx: EventRows,
  receipts: readonly EventReceipt[],
): Promise<{ counted: number; unknown: string[] }> {
  const unknown: string[] = [];
  let counted = 0;
  for (const receipt of receipts) {
    const topic = await tx.topicAt(Number(receipt.cursor), receipt.id);
    if (topic === undefined) {
      unknown.push(receipt.id);
      continue;
    }
    const status = receipt.status_code;
    const acknowledged = status !== null && status >= 200 && status < 300;
    await tx.addCounts([
      { kind: "delivered", name: topic, detail: "", n: 1 },
      ...(acknowledged ? [{ kind: "acknowledged" as const, name: topic, detail: "", n: 1 }] : []),
    ]);
    counted++;
  }
  return { counted, unknown };
}
