// The sandbox in a browser page (the in-page sandbox, MSW's setupWorker): the same composition as
// Node's, with what a page has: the memory store, deliveries through fetch or a callback, the
// documents' operations as Prism read them at build time (src/generated/prism-operations.json:
// a page has no Prism OpenAPI reader), the default readiness profile read at build time (no YAML
// parser), and no files.
import { type Operations, prismEngineOf } from "@org/payments-engine";
import { composeSandbox, type SandboxOptions } from "../compose-sandbox.js";
import { DEFAULT_DELIVERY_LIMITS, fetchWebhookSender } from "../events/index.js";
import prismOperations from "../generated/prism-operations.json" with { type: "json" };
import { DEFAULT_PROFILE } from "../generated/readiness-profile.js";
import type { Profile } from "../readiness/index.js";
import { readSeed } from "../seed/index.js";
import { openMemoryStore } from "../store/memory-store.js";
import { type FetchSandbox, sandboxOverFetch } from "./fetch-handler.js";

const { api, testMode } = prismOperations as unknown as { api: Operations; testMode: Operations };

export interface BrowserSandboxOptions
  extends Pick<
    SandboxOptions,
    "deliveryChaos" | "exampleKey" | "maxPartners" | "rehearsal" | "version" | "delivery"
  > {
  /** The URL the sandbox answers under, which its controls send to. Default `http://sandbox.test`. */
  baseUrl?: string;
  /** The key the returned controls send. Default: a new key, a partner of its own. */
  apiKey?: string;
  /**
   * Where webhook deliveries go: "fetch" (default) POSTs them with the page's fetch (subject to
   * CORS), or a callback gets each instead of its url.
   */
  webhookTransport?: Exclude<SandboxOptions["webhookTransport"], "http">;
  /** A seed object instead of the one made from the spec's examples. */
  seed?: object;
  /** Days after its last request a partner's data is purged. Default 0: a page keeps every partner. */
  idleDays?: number;
}

/**
 * A sandbox in the page, answering `Request`s with `Response`s (`handle`, `fetch`), with the typed
 * controls of the partner of `apiKey`; its data lives as long as the page. Resolves once it answers.
 */
export async function browserSandbox(options: BrowserSandboxOptions = {}): Promise<FetchSandbox> {
  const { baseUrl, apiKey, webhookTransport = "fetch", seed, delivery, ...rest } = options;
  const limits = { ...DEFAULT_DELIVERY_LIMITS, ...delivery };
  const sandbox = await composeSandbox({
    idleDays: 0,
    ...rest,
    operations: api,
    seed: seed === undefined ? undefined : readSeed(seed),
    profile: DEFAULT_PROFILE as Profile,
    storeKind: "memory",
    openStore: (initial, counting) => openMemoryStore(initial, { counting }),
    sender: fetchWebhookSender(limits, webhookTransport === "fetch" ? undefined : webhookTransport),
  });
  let controlEngine: ReturnType<typeof prismEngineOf> | undefined;
  return sandboxOverFetch({
    sandbox,
    engine: engineOfApi(),
    controlEngine: async () => {
      controlEngine ??= prismEngineOf(testMode, false);
      return controlEngine;
    },
    baseUrl,
    apiKey,
  });
}

let apiEngine: ReturnType<typeof prismEngineOf> | undefined;

/** The API's engine, made once per page: an engine is not changed by what it routes. */
function engineOfApi() {
  apiEngine ??= prismEngineOf(api, false);
  return apiEngine;
}
