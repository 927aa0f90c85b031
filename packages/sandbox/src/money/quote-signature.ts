// The sandbox's own quote signature (the API description does not show the real scheme): base64
// of HMAC-SHA256, keyed with the sandbox's secret, over the quote's canonical JSON without its
// `signature` (RFC 8785: object keys sorted, no whitespace; a quote has no numbers). A partner
// checks that a quote they stored is unmodified with POST /_sandbox/quotes/verify.

import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { isObject } from "@org/payments-engine";
import { randomHex } from "../random/index.js";
import type { MoneyRows } from "./money-rows.js";

/** JSON with every object's keys sorted, as RFC 8785 serialises strings, booleans and null. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isObject(value)) {
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The sandbox's signing secret, made at its first quote (a reset makes a new one). */
export async function signingSecret(store: MoneyRows): Promise<string> {
  const stored = await store.setting("quote_signing_secret");
  if (stored !== undefined) return stored;
  await store.initSetting("quote_signing_secret", randomHex(32));
  return (await store.setting("quote_signing_secret")) ?? "";
}

/** The signature of a quote's fields (any `signature` among them is left out). */
export function signatureOf(secret: string, quote: Record<string, unknown>): string {
  const { signature: _, ...fields } = quote;
  const mac = hmac(sha256, utf8ToBytes(secret), utf8ToBytes(canonicalJson(fields)));
  return btoa(String.fromCharCode(...mac));
}

/** Whether the quote carries the signature the sandbox gave it: none of its fields changed. */
export function signatureValid(secret: string, quote: Record<string, unknown>): boolean {
  if (typeof quote.signature !== "string") return false;
  const expected = signatureOf(secret, quote);
  const given = quote.signature;
  if (expected.length !== given.length) return false;
  // Compared in full, in a time that tells nothing of where they differ.
  let difference = 0;
  for (let index = 0; index < expected.length; index++) {
    difference |= expected.charCodeAt(index) ^ given.charCodeAt(index);
  }
  return difference === 0;
}
