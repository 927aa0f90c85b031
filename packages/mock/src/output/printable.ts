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
 * escape reads back as the same character.
 */
export function printable(text: string, apiKey: string): string {
  if (last?.apiKey !== apiKey) last = { apiKey, redact: redactor([apiKey], "[API key]") };
  return last
    .redact(text)
    .replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
