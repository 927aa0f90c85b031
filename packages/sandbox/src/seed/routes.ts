// The seed's test-mode route: POST /_sandbox/reset puts the partner back to the seed it started
// with (its clock stays where it is), and disarms every fault rule.
import { ok } from "../answers/answer.js";
import type { ArmedFaults } from "../faults/index.js";
import type { PendingRequests } from "../request-log/index.js";
import type { Routes, Transactions } from "../test-mode/index.js";
import { dataFromSeed, type Seed } from "./seed.js";
import type { SeedRows } from "./seed-rows.js";

/** What the reset is handed, for the caller's partner. */
export interface SeedContext {
  partner: string;
  store: Transactions<SeedRows>;
  /** What the partner started with. */
  startSeed: Seed;
  /** The finished requests waiting, written before the reset; undefined when none are kept. */
  pending: PendingRequests | undefined;
  /** The partner's armed rules and rate limit, read again after the reset with rehearsal on. */
  faults: ArmedFaults;
  rehearsal: boolean;
}

export const SEED_ROUTES: Routes<SeedContext> = {
  resetSandbox: async ({ partner, store, startSeed, pending, faults, rehearsal }) => {
    await pending?.flush(partner);
    await store.transaction(async (tx) => {
      await tx.replaceAll(dataFromSeed(startSeed));
      if (rehearsal) await faults.reload(tx);
    });
    return ok({ reset: true });
  },
};
