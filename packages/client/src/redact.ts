/** A copy of a parsed body with every occurrence of `secret` replaced, in keys and values. */
export function redact(value: unknown, secret: string): unknown {
  if (typeof value === "string") return value.replaceAll(secret, "[redacted]");
  if (Array.isArray(value)) return value.map((item) => redact(item, secret));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [redact(key, secret), redact(item, secret)]),
    );
  }
  return value;
}
