// Where the API has no operation for a request but the test mode has one at the same path under
// /_sandbox/ (POST /webhooks: the API cannot add a webhook, POST /_sandbox/webhooks can), the
// refusal names the test-mode route. Its document is read the first time a refusal needs it,
// never at start: most runs refuse no route.
import { existsSync } from "node:fs";
import path from "node:path";
import {
  type Operations,
  prismRoute,
  readSpecOperations,
} from "@org/payments-engine/engine/prism-adapter.js";

/** The words naming the test-mode route that does what `method path` asked, if there is one. */
export type TestModeHint = (method: string, path: string) => Promise<string | undefined>;

/**
 * Hints from the test-mode document beside `spec` (`test-mode.yaml`, as the package and the
 * repository place it); none when there is no such document.
 */
export function testModeHints(spec: string, stateful: boolean): TestModeHint {
  const document = path.join(path.dirname(spec), "test-mode.yaml");
  let operations: Promise<Operations> | undefined;
  return async (method, requestPath) => {
    if (operations === undefined) {
      operations = existsSync(document)
        ? readSpecOperations(document).catch(() => [])
        : Promise.resolve([]);
    }
    const target = `/_sandbox${requestPath}`;
    const input = { method: method.toLowerCase() as "post", url: { path: target } };
    const routed = prismRoute({ resources: await operations, input });
    if (routed._tag !== "Right") return undefined;
    const does = routed.right.summary ? ` (${lowerFirst(routed.right.summary)})` : "";
    const where = stateful
      ? ""
      : ", which the stateful sandbox serves: start the mock with --stateful";
    return `the test mode has ${method} ${target}${does}${where}`;
  };
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
