// The quote signature (HMAC-SHA256 by @noble/hashes, so that a browser page signs too) is the one
// node:crypto makes: quotes a partner stored before still verify.
import { createHmac } from "node:crypto";
import { expect, it } from "vitest";
import { signatureOf, signatureValid } from "../../src/money/quote-signature.js";

it("signs a quote's canonical JSON as node:crypto's HMAC-SHA256 does, and checks it whole", () => {
  const secret = "5f".repeat(32);
  const quote = { quote_id: "q-1", rate: "1.0834", currency: "EUR", nested: { b: "2", a: "é" } };
  const canonical =
    '{"currency":"EUR","nested":{"a":"é","b":"2"},"quote_id":"q-1","rate":"1.0834"}';
  const expected = createHmac("sha256", secret).update(canonical).digest("base64");
  expect(signatureOf(secret, { ...quote, signature: "ignored" })).toBe(expected);
  expect(signatureValid(secret, { ...quote, signature: expected })).toBe(true);
  expect(signatureValid(secret, { ...quote, rate: "1.0835", signature: expected })).toBe(false);
  expect(signatureValid(secret, { ...quote, signature: expected.slice(1) })).toBe(false);
  expect(signatureValid(secret, quote)).toBe(false);
});
