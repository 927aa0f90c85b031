// The stateful sandbox in Node: its data in SQLite (in memory, or a file) or Postgres, its webhook
// deliveries over undici (or fetch, or a callback), its seed and readiness profile read from
// files; composed by compose-sandbox.ts.
import { composeSandbox, type Sandbox, type SandboxOptions } from "./compose-sandbox.js";
import { DEFAULT_DELIVERY_LIMITS, DeliverySender, fetchWebhookSender } from "./events/index.js";
import { DEFAULT_PROFILE } from "./generated/readiness-profile.js";
import { PROFILE_CONTEXT, type Profile, readProfile } from "./readiness/index.js";
import { readSeed, readSeedFile } from "./seed/index.js";
import { isPostgresUrl } from "./store/index.js";
import { openMemoryStore } from "./store/memory-store.js";
import { openStore } from "./store/open-store.js";

export { FEATURES, type Sandbox, type SandboxOptions } from "./compose-sandbox.js";

export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  const {
    state,
    memoryStore,
    seed,
    webhookTransport = "http",
    log,
    readinessProfile,
    delivery,
    ...rest
  } = options;
  const read =
    seed === undefined ? undefined : typeof seed === "string" ? readSeedFile(seed) : readSeed(seed);
  // Before the store opens: a bad profile changes nothing. The default one is as the generate
  // step read it (test/readiness/profile.test.ts holds it to the YAML read and checked), as in a
  // page: checking it again at every start cost a sixth of a `payments-mock --stateful` start.
  const profile =
    readinessProfile === undefined
      ? (DEFAULT_PROFILE as Profile)
      : await readProfile(readinessProfile, PROFILE_CONTEXT);
  const limits = { ...DEFAULT_DELIVERY_LIMITS, ...delivery };
  const sender =
    webhookTransport === "http"
      ? new DeliverySender(limits)
      : fetchWebhookSender(limits, webhookTransport === "fetch" ? undefined : webhookTransport);
  const logLine = log ?? ((line: string) => console.error(line));
  return composeSandbox({
    ...rest,
    seed: read,
    profile,
    sender,
    storeKind: state === undefined ? "memory" : isPostgresUrl(state) ? "postgres" : "sqlite",
    openStore: (initial, counting) =>
      state === undefined && memoryStore === "javascript"
        ? openMemoryStore(initial, { counting })
        : openStore(state, initial, logLine, { counting }),
  });
}
