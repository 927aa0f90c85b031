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
 * A key at least this long is taken out of a request id or a logged target wherever it occurs; a
 * shorter one occurs there by chance (the key `0` in `req-10`, `test` in `/test-mode`), and is
 * taken out only where it stands whole.
 */
const LONG_KEY = 16;

/** What a log line shows in place of a key. */
const REDACTED = "[REDACTED]";

/** The request's API keys: the header's value, and each value of a repeated header. */
function keysOf(incoming: { headers: IncomingMessage["headers"] }, apiKeyHeader: string): string[] {
  const value = incoming.headers[apiKeyHeader.toLowerCase()];
  const values = (Array.isArray(value) ? value : [value]).filter(
    (key): key is string => typeof key === "string" && key !== "",
  );
  // Node joins a repeated header's values with ", ".
  const parts = values.flatMap((key) => [key, ...key.split(", ")]);
  return [...new Set(parts.filter((key) => key.trim() !== ""))];
}

/**
 * The request's own `x-request-id` when it sent one that is sane and holds none of the values of
 * `apiKeyHeader` (an id is logged; a key must never be), else a new UUID.
 */
export function requestIdOf(
  incoming: { headers: IncomingMessage["headers"] },
  apiKeyHeader: string,
): string {
  const sent = incoming.headers[REQUEST_ID];
  if (typeof sent !== "string" || !SANE_REQUEST_ID.test(sent)) return crypto.randomUUID();
  const holdsKey = keysOf(incoming, apiKeyHeader).some((key) =>
    key.length >= LONG_KEY ? sent.includes(key) : sent === key,
  );
  return holdsKey ? crypto.randomUUID() : sent;
}

/**
 * The request's target as its log line shows it: each of its API keys (as sent, or
 * percent-encoded) replaced, wherever it is when it is long, and as a whole query value when it is
 * short, so that a client that also put its key in the URL does not have it logged.
 */
export function loggedTarget(
  incoming: { url?: string | undefined; headers: IncomingMessage["headers"] },
  apiKeyHeader: string,
): string {
  let target = incoming.url ?? "";
  for (const key of keysOf(incoming, apiKeyHeader)) {
    for (const form of new Set([key, encodeURIComponent(key)])) {
      if (!target.includes(form)) continue;
      if (key.length >= LONG_KEY) {
        target = target.replaceAll(form, REDACTED);
      } else {
        const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        const value = new RegExp(`(?<=[?&][^&#=]*=)${escaped}(?=$|[&#])`, "g");
        target = target.replace(value, REDACTED);
      }
    }
  }
  return target;
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
