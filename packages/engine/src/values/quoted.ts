// A client's value (an id, a path, a cursor) as a problem's message quotes it: a small request
// must not buy a large answer, and a message quotes its value twice (in `errors` and `detail`).

/** How many characters of a client's value a message quotes. */
export const MAX_QUOTED = 200;

/** The value, or its first MAX_QUOTED characters and "…" (a surrogate pair is not split). */
export function quoted(value: string): string {
  if (value.length <= MAX_QUOTED) return value;
  const last = value.charCodeAt(MAX_QUOTED - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? MAX_QUOTED - 1 : MAX_QUOTED;
  return `${value.slice(0, end)}…`;
}
