// The request log: every finished API request of a partner, without bodies or API key, written
// with its readiness counts.
export { FinishedRequests } from "./finished-requests.js";
