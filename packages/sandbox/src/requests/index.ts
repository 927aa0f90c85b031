// The request log: every finished API request of a partner, without bodies or API key.
export { RequestRecorder } from "./recorder.js";
