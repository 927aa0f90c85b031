/**
 * Takes the API key out of everything the server says: each message it sends to the MCP client
 * and each line it logs. The client already keeps the key out of its errors; this is the one
 * place that holds for every path, including ones nobody foresaw.
 */

const REDACTED = "[redacted]";

/** `text` with the key replaced, as is and as JSON would escape it. */
export function redactText(text: string, secret: string): string {
  if (secret === "") return text;
  const escaped = JSON.stringify(secret).slice(1, -1);
  return text.replaceAll(secret, REDACTED).replaceAll(escaped, REDACTED);
}

/** A copy of `value` with the key replaced in every string (and key) it holds. */
function redactValue(value: unknown, secret: string): unknown {
  if (typeof value === "string") return redactText(value, secret);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secret));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        redactText(key, secret),
        redactValue(item, secret),
      ]),
    );
  }
  return value;
}

/** The message itself when it does not hold the key (the usual case), else a redacted copy. */
export function redactMessage<T>(message: T, secret: string): T {
  if (secret === "") return message;
  // One pass of the JSON text is faster than walking the message's strings (bench/, MCP server).
  const text = JSON.stringify(message);
  const escaped = JSON.stringify(secret).slice(1, -1);
  if (!text.includes(secret) && !text.includes(escaped)) return message;
  return redactValue(message, secret) as T;
}
