/**
 * Taking the API key out of what an error shows. A key shorter than MIN_KEY_LENGTH (the sandbox
 * takes any, `0` and `test` among them) occurs by chance in numbers and words: it is replaced only
 * where it stands as a token of its own, and in an error body's JSON only inside its strings, so
 * `"status":404` stays; a longer key cannot occur by chance and is replaced wherever it is.
 */

const REDACTED = "[redacted]";

/** Keys shorter than this are taken out as tokens of their own only. */
const MIN_KEY_LENGTH = 16;

/**
 * What sets a short key apart as a token of its own: white space, quotes, brackets and the
 * separators of a header, a query or a list. Letters, digits and `.-_@/` join it to its
 * neighbours (`404`, `127.0.0.1`, `qa-test@lumen.test` hold no key `0` or `test`).
 */
const APART = "[\\s\"'`()[\\]{}<>,;=:]";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `text` with `secret` replaced, as is and as JSON would escape it. */
export function redactText(text: string, secret: string): string {
  if (secret === "") return text;
  const forms = [secret, JSON.stringify(secret).slice(1, -1)];
  let out = text;
  for (const form of new Set(forms)) {
    if (!out.includes(form)) continue;
    if (secret.length >= MIN_KEY_LENGTH) {
      out = out.replaceAll(form, REDACTED);
    } else {
      const word = new RegExp(`(?<=^|${APART})${escapeRegExp(form)}(?=$|${APART})`, "gu");
      out = out.replace(word, REDACTED);
    }
  }
  return out;
}

/** An error body's text without the key; a short key is taken out of its JSON's strings only. */
export function redactBody(text: string, secret: string): string {
  if (secret.length >= MIN_KEY_LENGTH || redactText(text, secret) === text) {
    return redactText(text, secret);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return redactText(text, secret);
  }
  return JSON.stringify(parsed, (_key, value: unknown) => {
    if (typeof value === "string") return redactText(value, secret);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [redactText(name, secret), item]),
    );
  });
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
