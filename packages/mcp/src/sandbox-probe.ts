/**
 * Whether the base URL is our sandbox. Writes go to it without `--allow-writes`, so it has to
 * prove it, not merely answer: at `GET /_sandbox/openapi.json` it serves the test-mode document,
 * whose `info` names it (its title and the `x-payments-sandbox` marker) and whose routes are all
 * under `/_sandbox/`. Anything else is not a sandbox, and the reason says what was wrong; a
 * server that does not answer leaves the question open, and it is asked again when next needed.
 */
import { PaymentsResponseError } from "@org/payments-client";
import { testModeIdentity } from "./generated/tools.js";
import type { Send } from "./send.js";

const SANDBOX_DOCUMENT_PATH = "/_sandbox/openapi.json";
const SANDBOX_PREFIX = "/_sandbox/";

export type SandboxState =
  /** `operations`: the test mode's operations the sandbox serves, by operationId. */
  | { kind: "sandbox"; operations: ReadonlySet<string> }
  | { kind: "not-sandbox"; reason: string }
  | { kind: "unknown"; reason: string };

export interface SandboxProbe {
  /** The answer, asking the server when it is not known yet. */
  state(): Promise<SandboxState>;
}

/**
 * Nothing listening is known at once (the connection is refused): the wait only matters for a
 * sandbox slow to answer (a loaded machine), which must not be taken for no sandbox.
 */
const PROBE_TIMEOUT_MS = 15_000;
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** What the served document proves: the sandbox's operations, or why it is not the sandbox's. */
function judgeDocument(document: unknown): SandboxState {
  const answered = `it answered GET ${SANDBOX_DOCUMENT_PATH} with`;
  const not = (reason: string): SandboxState => ({ kind: "not-sandbox", reason });
  if (!isObject(document) || typeof document.openapi !== "string" || !isObject(document.paths)) {
    return not(`${answered} JSON that is not an OpenAPI document`);
  }
  const info = isObject(document.info) ? document.info : {};
  const { title, marker } = testModeIdentity;
  if (info.title !== title || info[marker.name] !== marker.value) {
    const named = typeof info.title === "string" ? JSON.stringify(info.title) : "no title";
    return not(
      `${answered} an OpenAPI document that is not the sandbox's test mode (${named}, where the sandbox's is ${JSON.stringify(title)} with ${marker.name}: ${marker.value})`,
    );
  }
  const paths = Object.keys(document.paths);
  const outside = paths.find((path) => !path.startsWith(SANDBOX_PREFIX));
  if (outside !== undefined || !paths.includes(SANDBOX_DOCUMENT_PATH)) {
    const why = outside ? `a route outside ${SANDBOX_PREFIX}, ${outside}` : "no route to itself";
    return not(`${answered} a test-mode document with ${why}`);
  }
  const operations = new Set<string>();
  for (const item of Object.values(document.paths)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (isObject(operation) && typeof operation.operationId === "string") {
        operations.add(operation.operationId);
      }
    }
  }
  return { kind: "sandbox", operations };
}

export function sandboxProbe(send: Send, onSettled?: (state: SandboxState) => void): SandboxProbe {
  let known: SandboxState | undefined;
  let asking: Promise<SandboxState> | undefined;

  const ask = async (): Promise<SandboxState> => {
    try {
      const { data, response } = await send("GET", SANDBOX_DOCUMENT_PATH, {
        maxRetries: 0,
        timeoutMs: PROBE_TIMEOUT_MS,
      });
      if (response.ok) return judgeDocument(data);
      return {
        kind: "not-sandbox",
        reason: `it answered GET ${SANDBOX_DOCUMENT_PATH} with HTTP ${response.status}`,
      };
    } catch (error) {
      // A 2xx that is not JSON (a web page) is an answer: not a sandbox's.
      if (error instanceof PaymentsResponseError) {
        return {
          kind: "not-sandbox",
          reason: `it answered GET ${SANDBOX_DOCUMENT_PATH} with no JSON`,
        };
      }
      return {
        kind: "unknown",
        reason: `it did not answer GET ${SANDBOX_DOCUMENT_PATH} (${(error as Error).message})`,
      };
    }
  };

  return {
    state() {
      if (known) return Promise.resolve(known);
      asking ??= ask().then((state) => {
        asking = undefined;
        if (state.kind !== "unknown") known = state;
        onSettled?.(state);
        return state;
      });
      return asking;
    },
  };
}
