// @org/payments-mock/msw in a browser (the `browser` condition of the package's exports): the same
// handlers as Node's, answered by the in-page sandbox, for setupWorker. Built by
// scripts/build-browser.ts into dist/msw.browser.mjs, which imports only `msw`.
import { browserSandbox } from "@org/payments-sandbox/browser";
import {
  handlersOver,
  type SandboxHandlers,
  type SandboxHandlersOptions,
} from "./sandbox-handlers.js";

export * from "./shared-exports.js";

/** MSW handlers answering the API and its test mode under `baseUrl` from an in-page sandbox. */
export function sandboxHandlers(options: SandboxHandlersOptions): SandboxHandlers {
  if (options.spec !== undefined) {
    throw new TypeError(
      "sandboxHandlers: `spec` names a file, which a browser cannot read; in a browser the handlers answer the spec shipped in @org/payments-mock (leave `spec` out)",
    );
  }
  return handlersOver(browserSandbox, options);
}
