// @org/payments-mock/msw: the sandbox as MSW handlers, for a front end's tests (Node's setupServer);
// in a browser the package's `browser` condition gives msw-browser.ts, the same API.
import { bundledSpecPath } from "@org/payments-engine";
import { fetchSandbox } from "@org/payments-sandbox";
import {
  handlersOver,
  type SandboxHandlers,
  type SandboxHandlersOptions,
} from "./sandbox-handlers.js";

export * from "./shared-exports.js";

/**
 * MSW handlers answering the API and its test mode under `baseUrl` from a sandbox of their own
 * (in a browser, `@org/payments-mock/msw` is msw-browser.ts's: the same handlers on the in-page
 * sandbox).
 */
export function sandboxHandlers(options: SandboxHandlersOptions): SandboxHandlers {
  const spec = options.spec ?? bundledSpecPath();
  return handlersOver((opened) => fetchSandbox({ ...opened, spec }), options);
}
