// Every answer of the mock, the sandbox and the proxy carries an `x-request-id`, logged on the
// request's line, so a partner and whoever reads the log can name the same request.
import type { IncomingMessage, ServerResponse } from "node:http";

export const REQUEST_ID = "x-request-id";

/**
 * A request id a client may choose: 1 to 128 characters a log line and a header can carry as they
 * are (letters, digits and `._:+=/@-`); anything else is replaced by a new id.
 */
const SANE_REQUEST_ID = /^[\w.:+=/@-]{1,128}$/;

/**
 * The request's own `x-request-id` when it sent one that is sane and is not the value of
 * `apiKeyHeader` (an id is logged; a key must never be), else a new UUID.
 */
export function requestIdOf(
  incoming: { headers: IncomingMessage["headers"] },
  apiKeyHeader: string,
): string {
  const sent = incoming.headers[REQUEST_ID];
  const key = incoming.headers[apiKeyHeader.toLowerCase()];
  const keys = Array.isArray(key) ? key : [key];
  return typeof sent === "string" && SANE_REQUEST_ID.test(sent) && !keys.includes(sent)
    ? sent
    : crypto.randomUUID();
}

/** Puts the request's id on its answer, whichever way the answer is written, and returns it. */
export function tagAnswer(
  incoming: IncomingMessage,
  response: ServerResponse,
  apiKeyHeader: string,
): string {
  const id = requestIdOf(incoming, apiKeyHeader);
  response.setHeader(REQUEST_ID, id);
  return id;
}

/** How a request's log line names its id. */
export function loggedId(id: string): string {
  return ` request-id=${id}`;
}
