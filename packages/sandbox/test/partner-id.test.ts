// A partner's id is derived from its key (UUIDv5 in the sandbox's namespace), and stores keep it:
// the id must not move when the hash's implementation does (@noble/hashes, not node:crypto, so
// that a browser page derives it too). Held here to node:crypto's SHA-1.
import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { EXAMPLE_PARTNER_ID, partnerIdOf } from "../src/store/partner.js";

/** UUIDv5 of `key` in the sandbox's namespace, by node:crypto. */
function nodeUuidV5(key: string): string {
  const hash = createHash("sha1")
    .update(Buffer.from("6a0f3c1e9b2d4e7fa1c35b8d2e4f6a70", "hex"))
    .update(key, "utf8")
    .digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

it("is the UUIDv5 of the key, as node:crypto derives it, the first time and the next", () => {
  for (const key of ["k", "sandbox-test-0f", "clé-ünïcødé-🔑", "x".repeat(500)]) {
    expect(partnerIdOf(key)).toBe(nodeUuidV5(key));
    expect(partnerIdOf(key)).toBe(nodeUuidV5(key));
  }
  expect(partnerIdOf("sandbox-key")).toBe(EXAMPLE_PARTNER_ID);
  expect(partnerIdOf("sandbox-key", "another-example-key")).toBe(nodeUuidV5("sandbox-key"));
});
