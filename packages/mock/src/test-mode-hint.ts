// Where the API has no operation for a request but the test mode has one at the same path under
// /_sandbox/ (POST /webhooks: the API cannot add a webhook, POST /_sandbox/webhooks can), the
// refusal names the test-mode route, routed by the engine of the test-mode document.
import type { PrismEngine } from "@org/payments-engine";

/** The words naming the test-mode route that does what `method path` asked, if there is one. */
export type TestModeHint = (method: string, path: string) => Promise<string | undefined>;

/**
 * Hints from the test-mode engine, made when a refusal first needs one (a run that refuses no
 * route never reads the document); the stateless mock's say how to start the sandbox.
 */
export function testModeHints(engine: () => Promise<PrismEngine>, stateful: boolean): TestModeHint {
  return async (method, requestPath) => {
    const target = `/_sandbox${requestPath}`;
    const operation = (await engine()).route(method, target);
    if (operation === undefined) return undefined;
    const does = operation.summary ? ` (${lowerFirst(operation.summary)})` : "";
    const where = stateful
      ? ""
      : ", which the stateful sandbox serves: start the mock with --stateful";
    return `the test mode has ${method} ${target}${does}${where}`;
  };
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
