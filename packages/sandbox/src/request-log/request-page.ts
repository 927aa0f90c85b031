// GET /_sandbox/requests: the partner's finished API requests, newest first, filtered by
// operation, status, fault, idempotency key and request id, and paged as the event log is.
import type { Answer } from "../answers/answer.js";
import { pageAnswer } from "../answers/page-answer.js";
import { page } from "../json/pages.js";
import type { RequestLogRows } from "./request-log-rows.js";

/** The query as the engine has validated it against the test-mode document. */
export interface RequestQuery {
  operation_id?: string;
  /** A whole number, as text. */
  status?: string;
  fault_id?: string;
  idempotency_key?: string;
  request_id?: string;
  cursor?: string;
  page_size?: string;
}

export async function requestPage(tx: RequestLogRows, query: RequestQuery): Promise<Answer> {
  const { operation_id, status, fault_id, idempotency_key, request_id, cursor, page_size } = query;
  const filter = {
    operation_id,
    status: status === undefined ? undefined : Number(status),
    fault_id,
    idempotency_key,
    request_id,
  };
  return pageAnswer(await page(tx.requestLog(filter), { cursor, page_size }));
}
