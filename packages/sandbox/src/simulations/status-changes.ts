// A status walked along the lifecycle (or forced): POST /_sandbox/{collection}/{id}/status. It
// answers the resource it changed, and sends the events each step sends.
import { quoted } from "@org/payments-engine";
import { type Answer, notFound, ok, problemAnswer } from "../answers/answer.js";
import type { ChangeContext } from "../lifecycle/change-context.js";
import { forceStatus, walkTo } from "../lifecycle/changes.js";
import { type Lifecycle, reachableFrom } from "../lifecycle/lifecycles.js";
import type { SimulationRows } from "./simulation-rows.js";

/**
 * POST /_sandbox/{collection}/{id}/status: walks the legal path to `status`, one step and one
 * event at a time, with the cascades of each step; `force` sets it directly. The document has
 * held `status` to the lifecycle's states, or, with `force`, for a transaction (whose statuses the
 * API leaves open), to any non-empty string.
 */
export async function changeStatus(
  context: ChangeContext<SimulationRows>,
  lifecycle: Lifecycle,
  id: string,
  status: string,
  force: boolean,
): Promise<Answer> {
  const stored = await context.tx.find(lifecycle.collection, id, undefined);
  if (stored === undefined) return notFound("path", "id", `no ${lifecycle.resource} ${quoted(id)}`);
  const current = String(stored.resource.status);
  if (force) {
    await forceStatus(context, lifecycle, stored, status);
    return ok(stored.resource);
  }
  // Already there: nothing changes, no event.
  if (status === current) return ok(stored.resource);
  if (await walkTo(context, lifecycle, stored, status)) return ok(stored.resource);
  const reachable = reachableFrom(lifecycle, current);
  const from =
    reachable.length === 0
      ? `nothing can be reached from ${current}`
      : `from ${current} it can reach ${reachable.join(", ")}`;
  return {
    status: 422,
    body: {
      ...problemAnswer(422, "illegal-transition", "Illegal transition", [
        {
          location: "body",
          field: "status",
          rule: "transition",
          message: `the ${lifecycle.resource} ${quoted(id)} is ${current} and cannot become ${status}: ${from} (or send "force": true to set it anyway)`,
        },
      ]).body,
      current,
      requested: status,
      reachable,
    },
  };
}
