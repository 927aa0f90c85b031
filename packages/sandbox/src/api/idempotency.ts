// IDEMPOTENCY-KEY: the first answer to a key is kept (in the store, a unique key there) and
// replayed to every repeat of the same request; the key with another request is refused. The
// key is claimed in the request's own transaction, so a second request with it, in this process
// or another, waits for the first and then replays its answer; exactly one of them does the work.

import { type Answer, problemAnswer } from "../answer/answer.js";
import type { IdempotentAnswer } from "../store/sandbox-data.js";
import type { PartnerStore, StoreTransaction } from "../store/store.js";

export interface KeyedRequest {
  key: string;
  method: string;
  path: string;
  scope: string | undefined;
  body: unknown;
}

/** An answer that needs a slow step (a webhook delivery) once the transaction has committed. */
interface AfterCommit {
  afterCommit(): Promise<Answer>;
}

export type WorkResult = Answer | AfterCommit;

export async function settled(result: WorkResult): Promise<Answer> {
  return "afterCommit" in result ? result.afterCommit() : result;
}

export class Idempotency {
  private readonly inFlight = new Map<string, Promise<Answer>>();

  private readonly store: PartnerStore;

  constructor(store: PartnerStore) {
    this.store = store;
  }

  /**
   * Runs `work` once per key, in one transaction with the key's claim and answer. An answer of
   * `before`, which runs first in the transaction, is the request's instead, and claims nothing.
   */
  async run(
    request: KeyedRequest,
    work: (tx: StoreTransaction) => Promise<WorkResult>,
    before?: (tx: StoreTransaction) => Promise<Answer | undefined>,
  ): Promise<Answer> {
    // Requests in this process wait for the first, so they replay rather than answer 409.
    const pending = this.inFlight.get(request.key);
    if (pending !== undefined) await pending.catch(() => undefined);
    const running = this.claimAndRun(request, work, before);
    this.inFlight.set(request.key, running);
    try {
      return await running;
    } finally {
      if (this.inFlight.get(request.key) === running) this.inFlight.delete(request.key);
    }
  }

  private async claimAndRun(
    request: KeyedRequest,
    work: (tx: StoreTransaction) => Promise<WorkResult>,
    before: ((tx: StoreTransaction) => Promise<Answer | undefined>) | undefined,
  ): Promise<Answer> {
    const fingerprint = fingerprintOf(request);
    const result = await this.store.transaction(async (tx): Promise<WorkResult> => {
      const instead = await before?.(tx);
      if (instead !== undefined) return instead;
      const claim = await tx.claimKey(request.key, {
        method: request.method,
        path: request.path,
        fingerprint,
      });
      if (!claim.claimed) {
        if (claim.first === "pending") return inFlight(request);
        return claim.first.fingerprint === fingerprint
          ? { ...claim.first.answer, replayed: true }
          : reused(request, claim.first);
      }
      const done = await work(tx);
      if (!("afterCommit" in done)) await tx.answerKey(request.key, done);
      return done;
    });
    if (!("afterCommit" in result)) return result;
    // The claim has committed without an answer; the slow step's answer completes it.
    try {
      const answer = await result.afterCommit();
      await this.store.transaction((tx) => tx.answerKey(request.key, answer));
      return answer;
    } catch (error) {
      await this.store.transaction((tx) => tx.releaseKey(request.key));
      throw error;
    }
  }
}

function fingerprintOf({ method, path, scope, body }: KeyedRequest): string {
  return JSON.stringify([method, path, scope ?? null, canonical(body)]);
}

/** JSON with object keys sorted, so that key order does not make two bodies differ. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
  );
}

function reused(request: KeyedRequest, first: Omit<IdempotentAnswer, "answer">): Answer {
  const samePath = first.method === request.method && first.path === request.path;
  const why = samePath
    ? `was first used for ${first.method} ${first.path} with a different body or X-SUB-PARTNER-ID`
    : `was first used for ${first.method} ${first.path}, not ${request.method} ${request.path}`;
  return problemAnswer(422, "idempotency-key-reused", "Idempotency key reused", [
    {
      location: "header",
      field: "IDEMPOTENCY-KEY",
      rule: "idempotency",
      message: `${request.key} ${why}; send a new key for a new request`,
    },
  ]);
}

/** Another process's request with the key is still waiting for its webhook delivery. */
function inFlight(request: KeyedRequest): Answer {
  return problemAnswer(409, "idempotency-key-in-flight", "Idempotency key in flight", [
    {
      location: "header",
      field: "IDEMPOTENCY-KEY",
      rule: "idempotency",
      message: `${request.key} is in use by a request that has not finished yet; retry it in a moment`,
    },
  ]);
}
