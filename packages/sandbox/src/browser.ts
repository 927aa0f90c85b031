// @org/payments-sandbox/browser: the sandbox in a browser page, with no node: module in its
// graph (the mock's browser build checks so): `browserSandbox(options)` answers a `Request` with a
// `Response` and drives the sandbox with the typed controls.
export { type BrowserSandboxOptions, browserSandbox } from "./http/browser-sandbox.js";
export type { FetchSandbox } from "./http/fetch-handler.js";
