// The money's test-mode routes: the rate table read and changed, a quote's signature checked, and
// the key quotes are signed with.
import { type Answer, ok } from "../answers/answer.js";
import type { SandboxClock } from "../clock/index.js";
import type { components } from "../generated/test-mode.js";
import type { Routes, Transactions } from "../test-mode/index.js";
import type { MoneyRows } from "./money-rows.js";
import { signatureValid, signingSecret } from "./quote-signature.js";
import { changeRates, readRates } from "./rates.js";

/** What the money's routes are handed, for the caller's partner. */
export interface MoneyContext {
  store: Transactions<MoneyRows>;
  clock: SandboxClock;
}

export const MONEY_ROUTES: Routes<MoneyContext> = {
  getRates: ({ store }) => store.transaction(async (tx) => ok({ rates: await readRates(tx) })),
  setRates: ({ store }, { body }) =>
    store.transaction(async (tx) => {
      const { rates } = body as components["schemas"]["RateChange"];
      return ok({ rates: await changeRates(tx, rates as Record<string, string>) });
    }),
  verifyQuote: ({ store, clock }, { body }) =>
    store.transaction((tx) => verifyQuote(tx, clock, body)),
  getQuoteSigningKey: ({ store }) =>
    store.transaction(async (tx) => ok({ algorithm: "HMAC-SHA256", key: await signingSecret(tx) })),
};

/**
 * Whether the body is a quote the sandbox signed, unchanged since; for one that is, whether its
 * `valid_until` and its rate lock's `rate_lock_valid_until` have passed on the sandbox clock.
 */
async function verifyQuote(
  tx: MoneyRows,
  clock: SandboxClock,
  body: Record<string, unknown>,
): Promise<Answer> {
  if (!signatureValid(await signingSecret(tx), body)) return ok({ valid: false });
  // A signed quote holds both times as the sandbox wrote them.
  const passed = (time: unknown) => clock.nowMs() >= Date.parse(String(time));
  return ok({
    valid: true,
    expired: passed(body.valid_until),
    rate_lock_expired: passed(body.rate_lock_valid_until),
  });
}
