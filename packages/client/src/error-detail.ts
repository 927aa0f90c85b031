/**
 * What goes into an error's message: the first thing an error body says went wrong, the origin a
 * request went to, and the system error code under a failed fetch. Each is bounded and on one
 * line, so a message stays readable whatever the server or the platform put there.
 */

/** The most a message quotes of what the server or the platform wrote. */
const MAX_QUOTED = 200;

/** `text` on one line, at most `max` characters (the cut marked with an ellipsis). */
export function quoted(text: string, max = MAX_QUOTED): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  const line = text.replace(/[\s\u0000-\u001f\u007f]+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/**
 * The first thing an error body says went wrong, or undefined when it says nothing readable. The
 * API leaves error bodies unspecified, so it reads the common shapes: a list of `errors` (the
 * mock's problems, RFC 9457 extensions), then RFC 9457's `detail` and `title`, then `message` and
 * `error` (a string or `{ message }`), then a plain-text body that is not HTML.
 */
export function bodyDetail(body: unknown): string | undefined {
  if (typeof body === "string") return /^\s*</.test(body) ? undefined : text(body);
  if (!isFields(body)) return undefined;
  const errors = Array.isArray(body.errors) ? body.errors : [];
  const first = errors.length > 0 ? errorText(errors[0]) : undefined;
  if (first !== undefined) {
    const more = errors.length - 1 + (typeof body.omitted === "number" ? body.omitted : 0);
    return more > 0 ? `${quoted(first)} (and ${more} more)` : first;
  }
  const nested = isFields(body.error) ? text(body.error.message) : text(body.error);
  return text(body.detail) ?? text(body.title) ?? text(body.message) ?? nested;
}

/** One entry of `errors`: a string, or where (location and field, or a pointer) and what. */
function errorText(entry: unknown): string | undefined {
  if (!isFields(entry)) return text(entry);
  const what = text(entry.message) ?? text(entry.detail) ?? ruleText(entry.rule);
  if (what === undefined) return undefined;
  const where = [text(entry.location), text(entry.field) ?? text(entry.pointer) ?? text(entry.path)]
    .filter((part) => part !== undefined)
    .join(" ");
  return where === "" ? what : `${where}: ${what}`;
}

function ruleText(rule: unknown): string | undefined {
  const name = text(rule);
  return name === undefined ? undefined : `breaks the rule ${name}`;
}

/** Where a request went, as scheme, host and port (the port even when it is the default). */
export function originOf(url: string | undefined): string | undefined {
  if (url === undefined || !URL.canParse(url)) return undefined;
  const { protocol, hostname, port } = new URL(url);
  const defaultPort = protocol === "https:" ? "443" : protocol === "http:" ? "80" : "";
  return `${protocol}//${hostname}:${port || defaultPort}`;
}

/**
 * The system error code somewhere in a failed fetch's cause chain (`ECONNREFUSED`, `ENOTFOUND`,
 * undici's `UND_ERR_…`, Bun's `ConnectionRefused`), or undefined where the platform gives none (a
 * browser's "Failed to fetch" says nothing more, by design).
 */
export function systemCode(error: unknown): string | undefined {
  let current = error;
  // A bounded walk: a cause chain is rarely more than two deep, and could be a cycle.
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[A-Za-z][A-Za-z0-9_]{1,40}$/.test(code)) return code;
    const inner = current instanceof AggregateError ? current.errors[0] : undefined;
    current = current.cause ?? inner;
  }
  return undefined;
}

/** The messages down a cause chain, each once: "fetch failed: connect ECONNREFUSED 127.0.0.1:1". */
export function causeChain(error: unknown): string {
  const messages: string[] = [];
  let current = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    const inner = current instanceof AggregateError ? current.errors[0] : undefined;
    const message = current instanceof Error ? current.message : String(current);
    if (message !== "" && !messages.includes(message)) messages.push(message);
    current = current instanceof Error ? (current.cause ?? inner) : undefined;
  }
  return quoted(messages.join(": "));
}
