// Random values from Web Crypto (`crypto.getRandomValues`), which Node and browsers both have: the
// sandbox's ids, hashes and secrets that need no sequence of their own.

/** `bytes` random bytes as lower-case hex. */
export function randomHex(bytes: number): string {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** A random integer from 0 up to `max` (excluded; at most 2^32), each equally likely. */
export function randomInt(max: number): number {
  // Values from the top partial range would favour the low numbers: they are drawn again.
  const limit = 2 ** 32 - (2 ** 32 % max);
  const value = new Uint32Array(1);
  do crypto.getRandomValues(value);
  while ((value[0] as number) >= limit);
  return (value[0] as number) % max;
}
