// What a finished API request leaves behind: a partner's finished requests go in ONE transaction
// that hands them to every writer the composition gives (the request log's append with failure
// rehearsal on, the readiness counts with counting on). A request costs no transaction of its own.
//
// A request that changes something (any method but GET) is answered once its batch has
// committed (`commit`), so that after a crash of the process (`kill -9`) the log and the counts
// hold every such request that was answered: its partner's write begins a turn of the event loop
// after it waits, takes every request of the partner's that finished until then, and on SQLite
// runs in the group commit of the requests answered at the same time (store/group-commit.ts). A
// read (`add`) is not held for it: it goes in the next such batch, or once WRITE_AFTER_MS have
// passed since the first request waiting, or at BATCH_SIZE new ones; a crash loses at most the
// reads of the last WRITE_AFTER_MS. Holding every read for its entry cost a read from the cache
// 20 % more CPU (bench/, Failure rehearsal: a batch is then a request or two). A read of the log,
// a readiness report, a reset, a purge and closing write what waits first.
//
// Each request is written by exactly one committed transaction: one that fails (a deadlock, the
// database away, a full store) puts its batch back, before what came since, and it is tried
// again a moment later. Its requests are answered meanwhile (a store that fails must not hold
// the answers). A store that keeps failing (full, say, while reads are still answered from the
// cache) would hold every request since in memory: a partner's newest MAX_WAITING wait, the
// older are dropped.
import { nextTurn } from "../clock/index.js";
import type { FinishedRequest } from "./finished-request.js";

/** Writes a batch of a partner's finished requests in its transaction (`rows`). */
export type RequestWriter<Rows> = (
  rows: Rows,
  requests: readonly FinishedRequest[],
) => Promise<void>;

/** Where the batches are written: one transaction on a partner's rows at a time. */
export interface PartnerTransactions<Rows> {
  transaction<T>(partner: string, work: (rows: Rows) => Promise<T>): Promise<T>;
}

/** What waits to be written, as a feature that reads what is written waits for it. */
export interface PendingRequests {
  /**
   * Resolves once every request finished before it is written (or put back to be retried): the
   * partner's only when one is named, so that a key's reads never wait for another key's writes.
   */
  flush(partner?: string): Promise<void>;
}

/** How long a read waits at most before it is written; how long after a failed write it is tried again. */
const WRITE_AFTER_MS = 100;
/** New requests waiting that make a batch go at once. */
const BATCH_SIZE = 500;
/** A partner's requests that wait at most, while its writes fail: ten times the log it keeps. */
export const MAX_WAITING = 100_000;

/** A finished request waiting to be written, and what is told once it is (or was put back). */
interface Waiting {
  request: FinishedRequest;
  /** Resolves its `add`; undefined once resolved. */
  settle: (() => void) | undefined;
}

export class FinishedRequests<Rows> implements PendingRequests {
  private readonly store: PartnerTransactions<Rows>;
  private readonly writers: readonly RequestWriter<Rows>[];
  private readonly pending = new Map<string, Waiting[]>();
  /** The partners whose next write is on its way and has not taken its batch yet. */
  private readonly queued = new Set<string>();
  /** Each partner's last write, which its next one waits for: a partner's are written in order. */
  private readonly partnerWrites = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  /** Requests added since the last flush (a batch put back does not count again). */
  private added = 0;
  /** Closed: nothing is written later, and what is added is dropped. */
  private closed = false;

  constructor(store: PartnerTransactions<Rows>, writers: readonly RequestWriter<Rows>[]) {
    this.store = store;
    this.writers = writers;
  }

  /** Writes the request in a batch soon: a read, which is answered without waiting for it. */
  add(partner: string, request: FinishedRequest): void {
    if (this.closed) return;
    this.waitIn(partner, { request, settle: undefined });
    if (++this.added >= BATCH_SIZE) void this.flush();
    else this.later();
  }

  /**
   * Writes the request at the next turn of the event loop; resolves once it is committed, or
   * once its write failed and it was put back to be tried again. Never rejects. Once closed, it
   * resolves at once and writes nothing.
   */
  commit(partner: string, request: FinishedRequest): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.waitIn(partner, { request, settle: resolve });
      this.writeOf(partner);
    });
  }

  private waitIn(partner: string, entry: Waiting): void {
    const waiting = this.pending.get(partner);
    if (waiting === undefined) this.pending.set(partner, [entry]);
    else waiting.push(entry);
  }

  /**
   * Writes what waits; resolves once it (and every earlier write) is written or put back to be
   * tried again. Never rejects: a read that follows shows what is written. Once closed, it only
   * waits for the writes under way. With `partner`, only that partner's: what another partner's
   * writes hold (a retried batch, a lock) neither delays this one nor tells it anything.
   */
  flush(partner?: string): Promise<void> {
    if (partner !== undefined) {
      if (!this.closed && this.pending.has(partner)) this.writeOf(partner);
      return this.partnerWrites.get(partner) ?? Promise.resolve();
    }
    if (!this.closed) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.added = 0;
      for (const partner of this.pending.keys()) this.writeOf(partner);
    }
    return Promise.all(this.partnerWrites.values()).then(() => undefined);
  }

  /**
   * Writes what waits of the partner's once its previous write is done (so that a batch put back
   * is written before the ones that came since: the counts decide a recovery in order), unless a
   * write that has not taken its batch yet is on its way: that one takes it.
   */
  private writeOf(partner: string): void {
    if (this.queued.has(partner)) return;
    this.queued.add(partner);
    /** What this write took; kept when the store runs the work again (a deadlock retried). */
    let taken: Waiting[] | undefined;
    const take = () => {
      if (taken === undefined) {
        this.queued.delete(partner);
        taken = this.pending.get(partner) ?? [];
        this.pending.delete(partner);
      }
      return taken;
    };
    const write = (this.partnerWrites.get(partner) ?? Promise.resolve())
      // The requests that finish in this turn of the event loop join the batch.
      .then(nextTurn)
      .then(() =>
        this.store.transaction(partner, async (rows) => {
          const batch = take();
          if (batch.length > 0) await this.writeBatch(rows, batch);
        }),
      )
      .then(
        () => settleAll(taken ?? []),
        () => {
          // A transaction that failed before its work ran took nothing: it fails what it would have taken.
          const failed = take();
          settleAll(failed);
          if (failed.length === 0) return;
          // Back in line, before the ones that came since, and tried again a moment later.
          const waiting = [...failed, ...(this.pending.get(partner) ?? [])];
          for (const dropped of waiting.slice(0, -MAX_WAITING)) dropped.settle?.();
          this.pending.set(partner, waiting.slice(-MAX_WAITING));
          this.later();
        },
      );
    this.partnerWrites.set(partner, write);
    void write.then(() => {
      if (this.partnerWrites.get(partner) === write) this.partnerWrites.delete(partner);
    });
  }

  /** Drops what waits for partners that are gone (purged): nothing is written for them. */
  forget(partners: Iterable<string>): void {
    for (const partner of partners) {
      settleAll(this.pending.get(partner) ?? []);
      this.pending.delete(partner);
    }
  }

  /**
   * Writes what waits, once (a batch that fails then is lost); no timer of its outlives it, and
   * nothing is written after.
   */
  close(): Promise<void> {
    const last = this.flush();
    this.closed = true;
    return last;
  }

  private async writeBatch(rows: Rows, batch: readonly Waiting[]): Promise<void> {
    const requests = batch.map((waiting) => waiting.request);
    for (const write of this.writers) await write(rows, requests);
  }

  /** Writes what waits WRITE_AFTER_MS from now, unless a write is set already. */
  private later(): void {
    if (this.timer !== undefined || this.closed) return;
    this.timer = setTimeout(() => void this.flush(), WRITE_AFTER_MS);
    // Node: not what keeps the process alive (a page's timers have no unref).
    this.timer.unref?.();
  }
}

/** Tells each that its write is over. */
function settleAll(batch: readonly Waiting[]): void {
  for (const waiting of batch) {
    waiting.settle?.();
    waiting.settle = undefined;
  }
}
