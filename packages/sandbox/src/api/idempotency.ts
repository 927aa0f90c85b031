// IDEMPOTENCY-KEY: the first answer to a key is kept (in the store, a unique key there) and
// replayed to every repeat of the same request; the key with another request is refused. The
// key is claimed in the request's own transaction (request/api-request.ts), so a second request
// with it, in this process or another, waits for the first and then replays its answer; exactly
// one of them does the work.

import { quoted } from "@org/payments-engine";
import { type Answer, problemAnswer } from "../answers/answer.js";
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

/** Requests of this process with the same key, one after another. */
export class Idempotency {
  private readonly inFlight = new Map<string, Promise<unknown>>();

  /**
   * Runs `request` once this process's earlier request with the key has finished, so that it
   * replays that one's answer rather than answer 409.
   */
  async oneAtATime<T>(key: string, request: () => Promise<T>): Promise<T> {
    const pending = this.inFlight.get(key);
    if (pending !== undefined) await pending.catch(() => undefined);
    const running = request();
    this.inFlight.set(key, running);
    try {
      return await running;
    } finally {
      if (this.inFlight.get(key) === running) this.inFlight.delete(key);
    }
  }
}

/**
 * Claims the key for the request, in its transaction; undefined once claimed, else the answer
 * instead: the first answer replayed, the key's reuse refused, or its request still in flight.
 */
export async function claimKey(
  tx: StoreTransaction,
  request: KeyedRequest,
): Promise<Answer | undefined> {
  const fingerprint = fingerprintOf(request);
  const claim = await tx.claimKey(request.key, {
    method: request.method,
    path: request.path,
    fingerprint,
  });
  if (claim.claimed) return undefined;
  if (claim.first === "pending") return inFlight(request);
  return claim.first.fingerprint === fingerprint
    ? { ...claim.first.answer, replayed: true }
    : reused(request, claim.first);
}

/** Keeps the operation's answer with the key claimed, in the same transaction; one that needs a slow step waits for it (keptAfterCommit). */
export async function keepAnswer(
  tx: StoreTransaction,
  key: string,
  done: WorkResult,
): Promise<void> {
  if (!("afterCommit" in done)) await tx.answerKey(key, done);
}

/**
 * The answer of a keyed request once its transaction has committed: for one with a slow step, the
 * step's answer, then kept with the key; the key is given up when the step fails.
 */
export async function keptAfterCommit(
  store: PartnerStore,
  key: string,
  result: WorkResult,
): Promise<Answer> {
  if (!("afterCommit" in result)) return result;
  // The claim has committed without an answer; the slow step's answer completes it.
  try {
    const answer = await result.afterCommit();
    await store.transaction((tx) => tx.answerKey(key, answer));
    return answer;
  } catch (error) {
    await store.transaction((tx) => tx.releaseKey(key));
    throw error;
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
    ? `was first used for ${first.method} ${quoted(first.path)} with a different body or X-SUB-PARTNER-ID`
    : `was first used for ${first.method} ${quoted(first.path)}, not ${request.method} ${quoted(request.path)}`;
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
