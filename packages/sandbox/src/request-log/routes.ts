// The request log's test-mode route: GET /_sandbox/requests, what is waiting written first.
import type { Routes, Transactions } from "../test-mode/index.js";
import type { PendingRequests } from "./finished-requests.js";
import type { RequestLogRows } from "./request-log-rows.js";
import { type RequestQuery, requestPage } from "./request-page.js";

/** What the request log's route is handed, for the caller's partner. */
export interface RequestLogContext {
  partner: string;
  store: Transactions<RequestLogRows>;
  /** The finished requests waiting to be written; undefined when none are kept. */
  pending: PendingRequests | undefined;
}

export const REQUEST_LOG_ROUTES: Routes<RequestLogContext> = {
  listRequests: async ({ partner, store, pending }, { query }) => {
    await pending?.flush(partner);
    return store.transaction((tx) => requestPage(tx, query as RequestQuery));
  },
};
