// The page of the browser test (worker.test.ts), bundled by esbuild as a browser app is: MSW's
// setupWorker with the package's handlers (`@org/payments-mock/msw` under the browser condition,
// the built dist/msw.browser.mjs), and the onboarding script on the page's fetch.
import { sandboxHandlers, type WebhookDelivery } from "@org/payments-mock/msw";
import { setupWorker } from "msw/browser";
import { onboardingScript, type ScriptResult } from "./onboarding-script.js";

declare global {
  interface Window {
    /** Starts the worker, then runs the script against the API's base URL. */
    runScript(baseUrl: string): Promise<ScriptResult>;
  }
}

window.runScript = async (baseUrl) => {
  const delivered: WebhookDelivery[] = [];
  const handlers = sandboxHandlers({
    baseUrl,
    onDelivery: (delivery) => {
      delivered.push(delivery);
    },
  });
  const worker = setupWorker(...handlers);
  await worker.start({ quiet: true, onUnhandledFrame: "error" });
  try {
    return await onboardingScript({
      fetch: (request) => fetch(request),
      baseUrl,
      partner: handlers.newPartner(),
      delivered,
    });
  } finally {
    worker.stop();
    await handlers.close();
  }
};
