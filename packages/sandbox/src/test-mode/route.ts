// A route of the test mode (openapi/test-mode.yaml) as a feature answers it: the request the engine
// has routed and validated against the document, the handler, and how the handler reaches the
// partner's part of the store: through the rows its feature declares, nothing more.
import type { Answer } from "../answers/answer.js";

/** A request the engine has routed to an operation of the test-mode document and validated. */
export interface ControlRequest {
  /** Path parameters, percent-decoded. */
  params: Record<string, string>;
  query: Record<string, string>;
  /** The headers, by their lower-case names. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The body, as the document's schema admits it (an empty object for a route without one). */
  body: Record<string, unknown>;
}

/** A handler: `context` is what the feature is handed, for the caller's partner. */
export type Route<Context> = (context: Context, request: ControlRequest) => Promise<Answer>;

/** A feature's routes, by the operationId of the test-mode document. */
export type Routes<Context> = Readonly<Record<string, Route<Context>>>;

/** The partner's part of the store as a feature reaches it: transactions over its own rows. */
export interface Transactions<Rows> {
  transaction<T>(work: (rows: Rows) => Promise<T>): Promise<T>;
}

/**
 * Reads of the partner's part of the store, of what has committed: where the store can, they do
 * not wait for the transactions queued meanwhile (see SandboxStore.read).
 */
export interface CommittedReads<Rows> {
  read<T>(work: (rows: Rows) => Promise<T>): Promise<T>;
}
