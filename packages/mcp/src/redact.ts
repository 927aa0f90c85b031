/**
 * Takes the API key out of what the server says where the key could be: a header an answer
 * carries, an error and its causes, a message the client or the API made of a failure, and
 * every log line. Never out of a protocol field or an answer's data: the sandbox takes any
 * key, `0` or `test` among them, and those occur in a version string or an email address by
 * chance. A key shorter than MIN_KEY_LENGTH is replaced only where it stands as a token of its
 * own (`key 0 refused`, not `404`); a longer one wherever it occurs, since it cannot occur by chance.
 */

const REDACTED = "[redacted]";

/** Keys shorter than this are easy to guess (the server warns at start), and redacted as tokens of their own. */
export const MIN_KEY_LENGTH = 16;

/**
 * What sets a short key apart as a token of its own: white space, quotes, brackets and the
 * separators of a header, a query or a list. Letters, digits and `.-_@/` join it to its
 * neighbours (`404`, `127.0.0.1`, `qa-test@lumen.test` hold no key `0` or `test`).
 */
const APART = "[\\s\"'`()[\\]{}<>,;=:]";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The forms of the key to look for: as is, and as JSON escapes it. */
function formsOf(secret: string): string[] {
  const escaped = JSON.stringify(secret).slice(1, -1);
  return escaped === secret ? [secret] : [secret, escaped];
}

/** `text` with the key replaced, as is and as JSON would escape it. */
export function redactText(text: string, secret: string): string {
  if (secret === "") return text;
  let out = text;
  for (const form of formsOf(secret)) {
    if (!out.includes(form)) continue;
    if (secret.length >= MIN_KEY_LENGTH) {
      out = out.replaceAll(form, REDACTED);
    } else {
      // A short key is a token of its own there, or no key at all.
      const word = new RegExp(`(?<=^|${APART})${escapeRegExp(form)}(?=$|${APART})`, "gu");
      out = out.replace(word, REDACTED);
    }
  }
  return out;
}

/** The error's message and its causes' (a bounded walk: a chain could be a cycle), redacted. */
export function errorText(error: unknown, secret: string): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    const message = current instanceof Error ? current.message : String(current);
    if (message !== "" && !parts.some((part) => part.includes(message))) parts.push(message);
    current = current instanceof Error ? current.cause : undefined;
  }
  return redactText(parts.join(": "), secret);
}

type RpcError = { code: number; message: string; data?: unknown };

/**
 * A JSON-RPC error answer with the key taken out of its message and data (an error can quote
 * what went wrong underneath); any other message as it is: its fields are the protocol's, and
 * its results are made of the answers' data and of texts already redacted where they were made.
 */
export function redactMessage<T>(message: T, secret: string): T {
  if (secret === "" || message === null || typeof message !== "object") return message;
  const { error } = message as { error?: RpcError };
  if (error === undefined || error === null || typeof error !== "object") return message;
  const data = error.data === undefined ? undefined : redactValue(error.data, secret);
  return {
    ...message,
    error: {
      ...error,
      message: redactText(String(error.message), secret),
      ...(data !== undefined && { data }),
    },
  };
}

/** A copy of a JSON value (an error body) with the key taken out of its strings and names. */
export function redactValue(value: unknown, secret: string): unknown {
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
