// A request as a string that holds everything it sent: two requests with the same key are the
// same request to anything that reads their method, target, headers (and body).
import type { IncomingMessage } from "node:http";
import { REQUEST_ID } from "./request-id.js";

/**
 * The method, target and headers (as sent, in their order; the request id aside, which differs
 * from one request to the next and is only echoed); undefined for a request that may have a body.
 */
export function bodilessKey(incoming: IncomingMessage): string | undefined {
  const length = incoming.headers["content-length"];
  if (incoming.headers["transfer-encoding"] !== undefined || (length ?? "0") !== "0") {
    return undefined;
  }
  return headKey(incoming);
}

/** Bodies longer than this get no key: a memo of answers keeps its keys. */
const MAX_KEYED_BODY = 8 * 1024;

/**
 * A request read whole, as a string that holds everything it sent: its method, target and headers
 * as bodilessKey has them, then its body's text (no header holds an empty line, so the two parts
 * cannot be mistaken for each other); undefined for a body longer than MAX_KEYED_BODY.
 */
export function readRequestKey(incoming: IncomingMessage, body: string): string | undefined {
  return body.length > MAX_KEYED_BODY ? undefined : `${headKey(incoming)}\n\n${body}`;
}

function headKey(incoming: IncomingMessage): string {
  const raw = incoming.rawHeaders;
  let key = `${incoming.method} ${incoming.url}`;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] ?? "";
    if (name.length !== REQUEST_ID.length || name.toLowerCase() !== REQUEST_ID) {
      key += `\n${name}: ${raw[index + 1]}`;
    }
  }
  return key;
}
