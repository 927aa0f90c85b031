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

/** Whether any string (or key) in `value` holds the key, as is or JSON-escaped. */
function holds(value: unknown, secret: string, escaped: string): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") {
      if (item.includes(secret) || item.includes(escaped)) return true;
    } else if (item !== null && typeof item === "object") {
      for (const key in item) {
        if (key.includes(secret)) return true;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** The message itself when it does not hold the key (the usual case), else a redacted copy. */
export function redactMessage<T>(message: T, secret: string): T {
  if (secret === "") return message;
  const escaped = JSON.stringify(secret).slice(1, -1);
  return holds(message, secret, escaped) ? (redactValue(message, secret) as T) : message;
}
