// The request target as the mock reads it: its path and query taken literally, and escapes decoded.

/** A request target split at its `?`: the path, and the query without the mark. */
export type Target = { path: string; query: string };

/** The scheme and authority of an absolute-form target (`http://host:port`). */
export const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/**
 * The request target taken literally, with no folding of `//` or dot segments, so
 * `//evil.example/customers` is not `/customers`. Origin-form (`/path?query`) and, as RFC 9112
 * §3.2.2 requires of a server, absolute-form (`http://host/path?query`, what a client sends to
 * an HTTP proxy), whose authority is disregarded: the path is the API's either way.
 */
export function splitTarget(target: string): Target | undefined {
  const authority = ABSOLUTE_FORM.exec(target)?.[0];
  if (authority !== undefined) {
    const rest = target.slice(authority.length);
    return splitTarget(rest.startsWith("/") ? rest : `/${rest}`);
  }
  if (!target.startsWith("/")) return undefined;
  const mark = target.indexOf("?");
  return mark === -1
    ? { path: target, query: "" }
    : { path: target.slice(0, mark), query: target.slice(mark + 1) };
}

/** `text` percent-decoded, or undefined when an escape in it is malformed. */
export function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
