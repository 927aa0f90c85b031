/**
 * Taking the API key out of what an error shows. A key shorter than 16 characters (the sandbox
 * takes any, `0` and `test` among them) occurs by chance in numbers and words: it is replaced only
 * where it stands apart (white space, quotes, brackets, `,;=:`; `404`, `127.0.0.1` and
 * `qa-test@lumen.test` hold no key `0` or `test`), and in an error body's JSON only inside its
 * strings, so `"status":404` stays. A longer key cannot occur by chance and goes wherever it is.
 */

const REDACTED = "[redacted]";

/**
 * `text` with `secret` replaced, as is and as a server may echo it: JSON-escaped (`/` too, as PHP
 * escapes it) or URL-encoded.
 */
export function redactText(text: string, secret: string): string {
  const apart =
    secret.length > 15
      ? ["", ""]
      : ["(?<=^|[\\s\"'`()[\\]{}<>,;=:])", "(?=$|[\\s\"'`()[\\]{}<>,;=:])"];
  const json = JSON.stringify(secret).slice(1, -1);
  const forms = secret
    ? [secret, json, json.replaceAll("/", "\\/"), encodeURIComponent(secret)]
    : [];
  for (const form of forms) {
    // Every result's request id passes here: a text without the key costs no pattern.
    if (!text.includes(form)) continue;
    const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    text = text.replace(new RegExp(apart[0] + escaped + apart[1], "g"), REDACTED);
  }
  return text;
}

/** An error body's text without the key: a JSON body's strings, any other text whole. */
export function redactBody(text: string, secret: string): string {
  const whole = redactText(text, secret);
  if (secret.length > 15 || whole === text) return whole;
  try {
    return JSON.stringify(JSON.parse(text), (_name, value: unknown) =>
      typeof value === "string" ? redactText(value, secret) : value,
    );
  } catch {
    return whole;
  }
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
