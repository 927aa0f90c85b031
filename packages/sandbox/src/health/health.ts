// GET /_sandbox/health: whether the sandbox is ready to answer, for CI's wait-for-it step and a
// load balancer's check. 200 once its store answers a read and its scheduler runs, with the
// version, the store's kind and the uptime; 503 with the reason otherwise. It needs no key and
// reads no partner's data: asking makes no partner.
import { type Answer, ok, problemAnswer } from "../answers/answer.js";
import { realNow } from "../clock/index.js";

/** Where the sandbox keeps its data. */
export type StoreKind = "memory" | "sqlite" | "postgres";

/** What the health check reads of the store: one read of a partner's that always exists. */
interface HealthRows {
  lastCursor(): Promise<unknown>;
}

/** The store as the health check reaches it (the stores implement it as they are). */
interface StoreProbe {
  transaction<T>(partner: string, work: (rows: HealthRows) => Promise<T>): Promise<T>;
}

/** What the health check is handed: plain values, the store to probe, the scheduler's state. */
export interface HealthSources {
  version: string;
  storeKind: StoreKind;
  /** Real time (ms) the sandbox started. */
  startedAt: number;
  store: StoreProbe;
  /** The partner whose read probes the store: one that always exists, so asking makes none. */
  probePartner: string;
  /** The scheduler: it stops running as the sandbox closes. */
  scheduler: { readonly running: boolean };
}

/** How long the store has to answer before the sandbox counts as not ready. */
const STORE_PATIENCE_MS = 2_000;

export async function healthAnswer(sources: HealthSources): Promise<Answer> {
  const read = sources.store.transaction(sources.probePartner, (rows) => rows.lastCursor());
  const store = await withPatience(read, STORE_PATIENCE_MS);
  const scheduler = sources.scheduler.running;
  const report = {
    version: sources.version,
    store: sources.storeKind,
    uptime_seconds: Math.max(0, Math.floor((realNow() - sources.startedAt) / 1000)),
  };
  if (store === true && scheduler) return ok({ status: "ready", ...report });
  const reason =
    store !== true
      ? `the ${sources.storeKind} store does not answer (${store})`
      : "the scheduler is not running (the sandbox is stopping)";
  const answer = problemAnswer(503, "not-ready", "Sandbox not ready", [
    { location: "route", field: "", rule: "ready", message: `${reason}; ask again shortly` },
  ]);
  return {
    ...answer,
    body: { ...(answer.body as object), ...report },
    headers: { "retry-after": "1" },
  };
}

/** true once `work` resolves within `ms`; otherwise why not, in words. */
async function withPatience(work: Promise<unknown>, ms: number): Promise<true | string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${ms} ms`), ms);
  });
  try {
    return await Promise.race([work.then(() => true as const), late]);
  } catch (error) {
    return (error as Error).message;
  } finally {
    clearTimeout(timer);
  }
}
