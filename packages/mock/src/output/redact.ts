// The API key never leaves the mock's commands, even when a server echoes it back: every text the
// proxy writes (its report, log lines and problems) and every line a client command prints
// passes through this.

/**
 * A key shorter than this occurs by chance in numbers and words (the sandbox takes any key, `0`
 * and `test` among them): it is replaced only where it stands apart, so that with the key `0` a
 * status `200` or a `page_size=100` stays readable. A longer key goes wherever it is.
 */
const SHORT_KEY = 16;
const APART = "\\s\"'`()[\\]{}<>,;=:/?&#";

/** Replaces each secret, as sent, JSON-escaped or percent-encoded, with `replacement`. */
export function redactor(
  secrets: readonly (string | undefined)[],
  replacement = "[REDACTED]",
): (text: string) => string {
  const forms = [
    ...new Set(
      secrets
        .filter((secret): secret is string => secret !== undefined && secret !== "")
        .flatMap((secret) =>
          [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)].map((form) => {
            const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
            return secret.length < SHORT_KEY
              ? `(?<=^|[${APART}])${escaped}(?=$|[${APART}])`
              : escaped;
          }),
        ),
    ),
  ].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return (text) => text;
  const pattern = new RegExp(forms.join("|"), "g");
  return (text) => text.replace(pattern, replacement);
}

/** A URL as a message shows it: its user info (`user:password@`), credentials, as `…@`. */
export function withoutUserInfo(url: string): string {
  return url.replace(/^([a-z][a-z\d+.-]*:\/\/)[^/?#]*@/i, "$1…@");
}
