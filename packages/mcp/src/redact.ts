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

/**
 * Whether JSON text holds the key, as is or as JSON escapes it. A key that JSON leaves as it is
 * (the usual case) is looked for once: a page of answers is scanned once, not twice.
 */
function holdsKey(text: string, secret: string): boolean {
  if (text.includes(secret)) return true;
  const escaped = JSON.stringify(secret).slice(1, -1);
  return escaped !== secret && text.includes(escaped);
}

/** The message itself when it does not hold the key (the usual case), else a redacted copy. */
export function redactMessage<T>(message: T, secret: string): T {
  if (secret === "") return message;
  // One pass of the JSON text is faster than walking the message's strings (bench/, MCP server).
  if (!holdsKey(JSON.stringify(message), secret)) return message;
  return redactValue(message, secret) as T;
}

/**
 * The message's JSON text without the key: serialised once (by `serialize`), that text checked,
 * and serialised again only from a redacted copy when it holds the key (stdio sends this text as
 * it is).
 */
export function redactedJson(
  message: unknown,
  secret: string,
  serialize: (message: unknown) => string = JSON.stringify,
): string {
  const text = serialize(message);
  if (secret === "" || !holdsKey(text, secret)) return text;
  return JSON.stringify(redactValue(message, secret));
}
