// @org/payments-mock/browser: the sandbox in a browser page, with no server. `browserSandbox(options)`
// resolves to a sandbox that answers a WHATWG `Request` with a `Response` (`handle`, or `fetch` for
// a client), with the typed controls in the names of the HTTP controls (advanceClock, setStatus,
// addFault, events, …) and `close()`. Built by scripts/build-browser.ts into dist/browser.mjs: one
// file, no imports, for a page or a service worker (the docs site loads it when no sandbox answers).
export {
  type BrowserSandboxOptions,
  browserSandbox,
  type FetchSandbox,
} from "@org/payments-sandbox/browser";
export { newApiKey, SandboxControlError } from "@org/payments-sandbox/controls";
