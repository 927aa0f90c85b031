// The request log: every finished API request of a partner, without bodies or API key, recorded
// once (finishedRequest), written in batches with its readiness counts, and listed through the
// test mode.
// Its typed controls (controls.ts) are the client side, entered directly by src/controls.ts.
export {
  type FinishedRequest,
  finishedRequest,
  headerOf,
  type KeptRequest,
} from "./finished-request.js";
export {
  FinishedRequests,
  type PendingRequests,
  type RequestWriter,
} from "./finished-requests.js";
export {
  appendToLog,
  type LoggedRequest,
  type RequestLogFilter,
  type RequestLogRows,
} from "./request-log-rows.js";
export { REQUEST_LOG_ROUTES, type RequestLogContext } from "./routes.js";
