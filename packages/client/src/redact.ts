/** Taking the API key out of what an error shows. */

const REDACTED = "[redacted]";

/** `text` with every occurrence of `secret` replaced, as is and as JSON would escape it. */
export function redactText(text: string, secret: string): string {
  return text
    .replaceAll(secret, REDACTED)
    .replaceAll(JSON.stringify(secret).slice(1, -1), REDACTED);
}

/**
 * Scrubs `secret` from an error's message and stack and from those of its causes, in place,
 * so that neither `String(error)` nor `util.inspect(error)` can show it.
 */
export function redactError(error: unknown, secret: string, depth = 0): void {
  let current = error;
  // A bounded walk: a cause chain is rarely more than two deep, and could be a cycle.
  for (let level = depth; level < 8 && current instanceof Error; level++) {
    current.message = redactText(current.message, secret);
    current.stack &&= redactText(current.stack, secret);
    // An AggregateError (undici's, for a host with several addresses) holds the real causes.
    if (current instanceof AggregateError) {
      for (const inner of current.errors) redactError(inner, secret, level + 1);
    }
    current = current.cause;
  }
}
