// What the request log keeps in the store, per partner (the SQL is store/request-log-rows.ts): its
// newest entries, in batches, read a page at a time.
import type { PageSource } from "../json/pages.js";
import type { KeptRequest } from "./finished-request.js";

/** Which entries of the request log a read keeps: each field given must match. */
export interface RequestLogFilter {
  operation_id?: string | undefined;
  status?: number | undefined;
  fault_id?: string | undefined;
  idempotency_key?: string | undefined;
  /** The X-Request-Id it was answered with. */
  request_id?: string | undefined;
}

/** A request log entry as the log stores it: its place in the log (the page cursor), its JSON. */
export interface LoggedRequest {
  id: string;
  text: string;
}

export interface RequestLogRows {
  /** Appends finished requests to the partner's request log, which keeps its newest REQUESTS_KEPT. */
  appendRequests(requests: readonly KeptRequest[]): Promise<void>;
  /** The partner's request log, newest first, filtered, a page at a time, by the database. */
  requestLog(filter: RequestLogFilter): PageSource<LoggedRequest>;
}

/** Appends the requests to the log: what the request log writes of each batch of finished requests. */
export function appendToLog(rows: RequestLogRows, requests: readonly KeptRequest[]): Promise<void> {
  return rows.appendRequests(requests);
}
