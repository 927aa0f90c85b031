// The request log: every finished API request of a partner, without bodies or API key.
export type { FaultKind, RequestEntry } from "../store/store.js";
export { REQUESTS_KEPT } from "../store/store.js";
export { recordRequests } from "./record.js";
export { FLUSH_MS, RequestRecorder } from "./recorder.js";
export { type RequestQuery, requestPage } from "./request-page.js";
