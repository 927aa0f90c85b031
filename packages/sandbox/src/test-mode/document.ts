// The test-mode document (openapi/test-mode.yaml, bundled into one file by `generate`): the engine
// routes and validates /_sandbox/ requests with it, and GET /_sandbox/openapi.json serves it; the
// API's document beside it, at GET /_sandbox/api/openapi.json.
import { ok } from "../answers/answer.js";
import apiDocument from "../generated/api-document.json" with { type: "json" };
import document from "../generated/test-mode.json" with { type: "json" };
import type { Routes } from "./route.js";

/** The document, as JSON. Read-only: the engine reads a copy of it. */
export const testModeDocument: Readonly<Record<string, unknown>> = document;

/** Where the sandbox's own routes live. */
const CONTROL_PREFIX = "/_sandbox/";

export function isControlPath(path: string): boolean {
  return path.startsWith(CONTROL_PREFIX);
}

/**
 * The documents' routes, by operationId: answered before any partner is entered, so that reading a
 * document makes none (nor counts against the partner limit).
 */
export const DOCUMENT_ROUTES: Routes<unknown> = {
  getTestModeDocument: async () => ok(testModeDocument),
  getApiDocument: async () => ok(apiDocument),
};
