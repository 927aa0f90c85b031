// The API key never leaves the proxy in a report, a log line or a problem it writes, even when
// the upstream echoes it back: every text the proxy writes passes through this.

const REDACTED = "[REDACTED]";

/** Replaces each secret, as sent, JSON-escaped or percent-encoded, with REDACTED. */
export function redactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const forms = [
    ...new Set(
      secrets
        .filter((secret): secret is string => secret !== undefined && secret !== "")
        .flatMap((secret) => [
          secret,
          JSON.stringify(secret).slice(1, -1),
          encodeURIComponent(secret),
        ]),
    ),
  ].sort((a, b) => b.length - a.length);
  return (text) => forms.reduce((redacted, form) => redacted.replaceAll(form, REDACTED), text);
}
