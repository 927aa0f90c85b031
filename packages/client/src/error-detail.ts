/**
 * What goes into an error's message: the first thing an error body says went wrong, the origin a
 * request went to, and the system error code under a failed fetch. Written small: it is in every
 * app's bundle, whose budget is 6,000 B gzipped.
 */

/** `text` on one line, at most `max` characters, so a message stays readable whatever it quotes. */
export function quoted(text: string, max = 200): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  const line = text.replace(/[\s\x00-\x1f]+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

/** What the reading below looks at in a body of unknown shape. */
type Loose = { [key: string]: unknown } | undefined;

/** A non-blank string, or undefined. */
function said(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value : undefined;
}

/**
 * The first thing an error body says went wrong, or undefined when it says nothing readable. The
 * API leaves error bodies unspecified, so it reads the common shapes: the first of a list of
 * `errors` (the mock's problems: where and what, and how many more), then RFC 9457's `detail` and
 * `title`, then `message`, then `error` (a string or `{ message }`), then a plain-text body that is
 * not an HTML page.
 */
export function bodyDetail(body: unknown): string | undefined {
  if (typeof body === "string") return /^\s*</.test(body) ? undefined : said(body);
  const fields = body as Loose;
  const errors = fields?.errors;
  const first = (Array.isArray(errors) ? errors[0] : undefined) as Loose | string;
  const what = typeof first === "string" ? first : said(first?.message ?? first?.rule);
  if (what !== undefined) {
    const entry = first as Loose;
    const where = [entry?.location, entry?.field ?? entry?.pointer].filter(said).join(" ");
    const more = (errors as unknown[]).length - 1 + (Number(fields?.omitted) || 0);
    return `${where && `${where}: `}${quoted(what)}${more > 0 ? ` (and ${more} more)` : ""}`;
  }
  const error = fields?.error as Loose | string;
  return said(
    fields?.detail ??
      fields?.title ??
      fields?.message ??
      (typeof error === "string" ? error : error?.message),
  );
}

/** Where a request went: scheme, host and port (the port even when it is the scheme's default). */
export function originOf(url: string): string {
  const { protocol, hostname, port } = new URL(url);
  return `${protocol}//${hostname}:${port || (protocol === "https:" ? 443 : 80)}`;
}

/**
 * The system error code down a failed fetch's cause chain (`ECONNREFUSED`, `ENOTFOUND`, undici's
 * `UND_ERR_…`, Bun's `ConnectionRefused`), and the chain's messages: "fetch failed: connect
 * ECONNREFUSED 127.0.0.1:1". A browser's "Failed to fetch" has no code, by design.
 */
export function causeOf(error: unknown): { code: string | undefined; text: string } {
  let code: string | undefined;
  const messages: string[] = [];
  let current = error;
  // A bounded walk: a cause chain is rarely more than two deep, and could be a cycle.
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    const own = (current as { code?: unknown }).code;
    if (!code && typeof own === "string") code = own;
    if (current.message && !messages.includes(current.message)) messages.push(current.message);
    // undici's AggregateError, for a host with several addresses, holds the real causes.
    current = current.cause ?? (current as Partial<AggregateError>).errors?.[0];
  }
  return { code, text: quoted(messages.join(": ") || String(error)) };
}
