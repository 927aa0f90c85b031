/** Taking the API key out of what an error shows. */

const REDACTED = "[redacted]";

/** `text` with every occurrence of `secret` replaced, as is and as JSON would escape it. */
export function redactText(text: string, secret: string): string {
  const escaped = JSON.stringify(secret).slice(1, -1);
  const once = text.replaceAll(secret, REDACTED);
  return escaped === secret ? once : once.replaceAll(escaped, REDACTED);
}

/** How many causes deep an error's chain is scrubbed; a chain is rarely more than two deep. */
const MAX_CAUSE_DEPTH = 8;

/**
 * Scrubs `secret` from an error's message and stack and from those of its causes, in place,
 * so that neither `String(error)` nor `util.inspect(error)` can show it.
 */
export function redactError(error: unknown, secret: string): void {
  let current = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current instanceof Error; depth++) {
    current.message = redactText(current.message, secret);
    if (typeof current.stack === "string") current.stack = redactText(current.stack, secret);
    current = current.cause;
  }
}
