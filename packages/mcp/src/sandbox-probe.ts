/**
 * Whether the base URL is a sandbox: a sandbox serves its test-mode document at
 * `GET /_sandbox/openapi.json`. A server that answers anything else is not one; a server that
 * does not answer leaves the question open, and it is asked again when next needed.
 */
import { PaymentsResponseError } from "@org/payments-client";
import type { Send } from "./send.js";

export const SANDBOX_DOCUMENT_PATH = "/_sandbox/openapi.json";

export type SandboxState =
  | { kind: "sandbox" }
  | { kind: "not-sandbox"; reason: string }
  | { kind: "unknown"; reason: string };

export interface SandboxProbe {
  /** The answer, asking the server when it is not known yet. */
  state(): Promise<SandboxState>;
}

const PROBE_TIMEOUT_MS = 3_000;

export function sandboxProbe(send: Send, onSettled?: (state: SandboxState) => void): SandboxProbe {
  let known: SandboxState | undefined;
  let asking: Promise<SandboxState> | undefined;

  const ask = async (): Promise<SandboxState> => {
    try {
      const { data, response } = await send("GET", SANDBOX_DOCUMENT_PATH, {
        maxRetries: 0,
        timeoutMs: PROBE_TIMEOUT_MS,
      });
      const document = data as { openapi?: unknown } | undefined;
      if (response.ok && typeof document?.openapi === "string") return { kind: "sandbox" };
      return {
        kind: "not-sandbox",
        reason: `it answered GET ${SANDBOX_DOCUMENT_PATH} with HTTP ${response.status}${response.ok ? " but no OpenAPI document" : ""}`,
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
