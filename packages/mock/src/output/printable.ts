// What a command prints of a server's or a file's words: without the API key, and without control
// characters that would act on the user's terminal.
import { redactor } from "./redact.js";

/**
 * Control characters (C0, DEL and C1) but the line break and tab, and the bidirectional controls
 * (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), which reorder what the user reads
 * after them: a name that shows as another.
 */
const CONTROL = /(?![\n\t])\p{Cc}|[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** The last key's redactor: a command prints with one key, line after line. */
let last: { apiKey: string; redact: (text: string) => string } | undefined;

/**
 * The text with the key replaced by [API key] (a short key only where it stands apart, so that
 * the key `1` leaves a count of 1 as it is), and each control character written as `\u001b` (a
 * bidirectional one as `\u202e`): a server's answer quoted in a message must not move the cursor,
 * recolour or retitle the user's terminal, nor reorder the words after it. In a JSON line, the
 * escape reads back as the same character. A JSON text (a `--format json` line or report) stays
 * JSON of the same values: the key is taken out of its strings only, and a short key not out of a
 * string that is nothing but it (a cursor `"1"` with the key `1`).
 */
export function printable(text: string, apiKey: string): string {
  if (last?.apiKey !== apiKey) last = { apiKey, redact: redactor([apiKey], "[API key]") };
  const { redact } = last;
  const redacted = redact(text);
  const shown = redacted === text ? text : (jsonRedacted(text, apiKey, redact) ?? redacted);
  return shown.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A short key, which a value can equal by chance (see redact.ts). */
const SHORT_KEY = 16;

/**
 * The JSON text with the key taken out of its strings and names, laid out as it was (one line, or
 * indented); undefined when the text is not JSON.
 */
function jsonRedacted(
  text: string,
  apiKey: string,
  redact: (text: string) => string,
): string | undefined {
  const body = text.trim();
  if (!(body.startsWith("{") || body.startsWith("["))) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  const short = apiKey.length < SHORT_KEY;
  const textOf = (string: string) => (short && string === apiKey ? string : redact(string));
  const walk = (item: unknown): unknown => {
    if (typeof item === "string") return textOf(item);
    if (Array.isArray(item)) return item.map(walk);
    if (item !== null && typeof item === "object") {
      return Object.fromEntries(Object.entries(item).map(([name, v]) => [textOf(name), walk(v)]));
    }
    return item;
  };
  const indent = /^[{[]\n( +)/.exec(body)?.[1]?.length;
  const start = text.slice(0, text.length - text.trimStart().length);
  const end = text.slice(text.trimEnd().length);
  return `${start}${JSON.stringify(walk(value), null, indent)}${end}`;
}
