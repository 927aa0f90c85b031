// GET /_sandbox/events: the delivery attempts the log holds, newest first, filtered by what a test
// asks about (an event, a webhook, a topic, a customer, delivered or not) and paged as the API's
// lists are: `cursor` names the first attempt of the next page, `prev_cursor` the first of this
// one, `page_size` at most 100 (default 10). The database filters and pages the log, in the order
// of its index, reading until the page is full: no record is parsed, and a page of attempts that
// are common in the log costs the same at any size of it (measured: 0.1 ms at 10,000 attempts),
// one of rare ones at most a scan of the partner's log (about 30 ms at its 10,000).
import type { Answer } from "../answers/answer.js";
import { pageAnswer } from "../answers/page-answer.js";
import { page } from "../json/pages.js";
import type { EventRows } from "./event-rows.js";

/** The query as the engine has validated it against the test-mode document. */
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

/** The page of the partner's log that the query asks for. */
export async function eventPage(tx: EventRows, query: EventQuery): Promise<Answer> {
  const { id, webhook_id, topic, customer_id, delivered, cursor, page_size } = query;
  const filter = {
    id,
    webhook_id,
    topic,
    customer_id,
    delivered: delivered === undefined ? undefined : delivered === "true",
  };
  return pageAnswer(await page(tx.eventLog(filter), { cursor, page_size }));
}
