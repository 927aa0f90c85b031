// GET /_sandbox/events: the delivery attempts the log holds, newest first, filtered by what a test
// asks about (an event, a webhook, a topic, a customer, delivered or not) and paged as the API's
// lists are: `cursor` names the first attempt of the next page, `prev_cursor` the first of this
// one, `page_size` at most 100 (default 10).
import { type Answer, pageAnswer } from "../api/answer.js";
import { type PageSource, page } from "../store/pages.js";
import type { DeliveryEvent } from "../store/state.js";

export interface EventQuery {
  id?: string;
  webhook_id?: string;
  topic?: string;
  customer_id?: string;
  /** "true" or "false". */
  delivered?: string;
  cursor?: string;
  page_size?: string;
}

/** An attempt as a page holds it: its cursor, and the record. */
interface Listed {
  id: string;
  record: DeliveryEvent;
}

/** The page of `records` (the whole log, newest first) that the query asks for. */
export async function eventPage(records: DeliveryEvent[], query: EventQuery): Promise<Answer> {
  const delivered = query.delivered === undefined ? undefined : query.delivered === "true";
  const kept = records.filter(
    (record) =>
      (query.id === undefined || record.id === query.id) &&
      (query.webhook_id === undefined || record.webhook_id === query.webhook_id) &&
      (query.topic === undefined || record.topic === query.topic) &&
      (query.customer_id === undefined || customerOf(record) === query.customer_id) &&
      (delivered === undefined || record.delivered === delivered),
  );
  const listed = kept.map((record) => ({ id: cursorOf(record), record }));
  return pageAnswer(
    await page(listSource(listed), { cursor: query.cursor, page_size: query.page_size }),
  );
}

/** An attempt's cursor: its own id, or (in a log written before attempts had one) its place. */
function cursorOf(record: DeliveryEvent): string {
  return record.attempt_id ?? `${record.id}.${record.attempt ?? 1}.${record.created_at}`;
}

function customerOf(record: DeliveryEvent): unknown {
  const payload = record.payload as { customer_id?: unknown } | null;
  return payload?.customer_id;
}

function listSource(items: Listed[]): PageSource<Listed> {
  const positions = new Map(items.map((item, index) => [item.id, index]));
  const positioned = (start: number, end: number) =>
    items.slice(start, end).map((item, offset) => ({ position: start + offset, item }));
  return {
    position: async (id) => positions.get(id),
    from: async (position, limit) => positioned(position ?? 0, (position ?? 0) + limit),
    before: async (position, limit) => positioned(Math.max(0, position - limit), position),
    json: (item) => JSON.stringify(item.record),
  };
}
