// RFC 9110 §7.6.1: a proxy removes the headers that describe one connection (and those the
// Connection header names) before it forwards a message, in either direction, and §7.6.3: it
// adds itself to Via.

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

export type HeaderPair = [name: string, value: string];

const VIA = "1.1 payments-mock";

/** Raw header pairs (`[name, value, name, value, …]`, as Node reads them) for the next hop. */
export function endToEndHeaders(raw: readonly string[]): HeaderPair[] {
  const pairs: HeaderPair[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i] ?? "", raw[i + 1] ?? ""]);
  const named = new Set(
    pairs
      .filter(([name]) => name.toLowerCase() === "connection")
      .flatMap(([, value]) => value.split(","))
      .map((name) => name.trim().toLowerCase()),
  );
  const kept = pairs.filter(([name]) => {
    const lower = name.toLowerCase();
    return !HOP_BY_HOP.has(lower) && !named.has(lower);
  });
  const via = kept.find(([name]) => name.toLowerCase() === "via");
  if (via) via[1] = `${via[1]}, ${VIA}`;
  else kept.push(["via", VIA]);
  return kept;
}
