// The one place a finished API request is recorded, in the transaction that writes it: the
// partner's request log, and whatever else counts requests. A request is recorded once its answer
// is final (a late answer, a dropped one, a replay), by a batch of the RequestRecorder.
import type { RequestEntry, StoreTransaction } from "../store/store.js";

export async function recordRequests(
  tx: StoreTransaction,
  entries: readonly RequestEntry[],
): Promise<void> {
  await tx.appendRequests(entries);
}
