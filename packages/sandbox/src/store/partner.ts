// A partner is the holder of an API key: each X-API-Key value is a sandbox of its own. The
// partner's id is derived from the key (a UUID version 5 of it), so it is the same in every
// process and across restarts, and the key itself is never stored or logged: the store keeps the
// partner id only.
import { sha1 } from "@noble/hashes/legacy.js";
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";

/**
 * The partner of the spec's examples: the example key's partner (see startMock's `exampleKey`),
 * which holds the whole seed, and the one data made before partners were kept apart belongs to.
 */
export const EXAMPLE_PARTNER_ID = "0b7e3c52-6d1f-4a8e-9c3b-5f2a7d9e1c40";

/** The key whose partner holds the whole seed when none is configured (the docs console's). */
export const DEFAULT_EXAMPLE_KEY = "sandbox-key";

/** The UUID namespace of sandbox partner ids (a random one, fixed forever: ids derive from it). */
const NAMESPACE = hexToBytes("6a0f3c1e9b2d4e7fa1c35b8d2e4f6a70");

/** Keys seen lately, with their partner ids: a key is hashed once, not at each of its requests. */
const known = new Map<string, string>();
/** Keys remembered at most; past them, the memory starts afresh. */
const KNOWN_MAX = 10_000;

/** The partner id of an API key: UUIDv5 (RFC 9562) of the key in the sandbox's namespace. */
export function partnerIdOf(apiKey: string, exampleKey = DEFAULT_EXAMPLE_KEY): string {
  if (apiKey === exampleKey) return EXAMPLE_PARTNER_ID;
  let id = known.get(apiKey);
  if (id === undefined) {
    if (known.size >= KNOWN_MAX) known.clear();
    id = uuidV5(apiKey);
    known.set(apiKey, id);
  }
  return id;
}

function uuidV5(apiKey: string): string {
  const hash = sha1(concatBytes(NAMESPACE, utf8ToBytes(apiKey)));
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytesToHex(hash.subarray(0, 16));
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
