// The ids of the resources the sandbox makes: UUIDs (as the description has every id) of version
// 7 (RFC 9562), whose first 48 bits are the sandbox time of the create in ms, the other 74 random.
// A partner's ids then sort in the order they were made, so that each create's entry in the
// store's index of (partner, collection, id) goes at its end, in the page the creates before it
// wrote, rather than in a random page: a group commit writes one index page, not one per create.

/** The highest time a version 7 UUID holds (48 bits of ms). */
const MAX_MS = 2 ** 48 - 1;

/** A new version 7 UUID for a resource made at `atMs` (sandbox time, ms since the epoch). */
export function newResourceId(atMs: number): string {
  const ms = Math.min(Math.max(Math.floor(atMs), 0), MAX_MS);
  const time = ms.toString(16).padStart(12, "0");
  // A version 4 UUID's random bits: its 3 after the version digit and its variant group, which
  // already starts with the bits 10 that RFC 9562 gives version 7 too.
  const random = crypto.randomUUID();
  return `${time.slice(0, 8)}-${time.slice(8)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}
