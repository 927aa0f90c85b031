// What a finished API request leaves behind, written in batches: a partner's pending requests go in
// ONE transaction that hands them to every writer the composition gives (the request log's append
// with failure rehearsal on, the readiness counts with counting on). A request costs a push onto a list, not a transaction of its own (a
// read answered from the read cache opens none). A batch goes once WRITE_AFTER_MS have passed since
// the first request waiting, or at BATCH_SIZE new ones; a read of the log, a readiness report, a
// reset, a purge and closing write what waits first.
//
// Each request is written by exactly one committed transaction: one that fails (a deadlock, the
// database away, a full store) puts its batch back, before what came since, and it is tried
// again. The log entries ride along with the counts, so they are retried too, rather than lost.
// A store that keeps failing (full, say, while reads are still answered from the cache) would
// hold every request since in memory: a partner's newest MAX_WAITING wait, the older are dropped.
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
  /** Resolves once every request finished before it is written (or put back to be retried). */
  flush(): Promise<void>;
}

/** How long a request waits at most before it is written (other processes read it then). */
const WRITE_AFTER_MS = 100;
/** New requests waiting that make a batch go at once. */
const BATCH_SIZE = 500;
/** A partner's requests that wait at most, while its writes fail: ten times the log it keeps. */
export const MAX_WAITING = 100_000;

export class FinishedRequests<Rows> implements PendingRequests {
  private readonly store: PartnerTransactions<Rows>;
  private readonly writers: readonly RequestWriter<Rows>[];
  private pending = new Map<string, FinishedRequest[]>();
  /** Requests added since the last write began (a batch put back does not count again). */
  private added = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Each partner's last write, which its next one waits for: a partner's are written in order. */
  private readonly partnerWrites = new Map<string, Promise<void>>();
  /** The writes under way: a flush resolves once every request added before it is written. */
  private writing: Promise<void> = Promise.resolve();
  /** Closed: nothing is written later, and what is added is dropped. */
  private closed = false;

  constructor(store: PartnerTransactions<Rows>, writers: readonly RequestWriter<Rows>[]) {
    this.store = store;
    this.writers = writers;
  }

  add(partner: string, request: FinishedRequest): void {
    if (this.closed) return;
    const waiting = this.pending.get(partner);
    if (waiting === undefined) this.pending.set(partner, [request]);
    else waiting.push(request);
    if (++this.added >= BATCH_SIZE) void this.flush();
    else this.later();
  }

  /**
   * Writes what waits; resolves once it (and every earlier write) is written or put back to be
   * tried again. Never rejects: a read that follows shows what is written. Once closed, it only
   * waits for the writes under way.
   */
  flush(): Promise<void> {
    if (this.closed) return this.writing;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.added = 0;
    const writes = Promise.all([...this.pending.keys()].map((partner) => this.writeOf(partner)));
    this.writing = Promise.all([this.writing, writes]).then(() => undefined);
    return this.writing;
  }

  /**
   * Writes what waits of the partner's once its previous write is done, so that a batch put back
   * is written before the ones that came since (the counts decide a recovery in order).
   */
  private writeOf(partner: string): Promise<void> {
    const write = (this.partnerWrites.get(partner) ?? Promise.resolve()).then(async () => {
      const requests = this.pending.get(partner);
      // Written by the write before, or forgotten.
      if (requests === undefined) return;
      this.pending.delete(partner);
      await this.store
        .transaction(partner, (tx) => this.write(tx, requests))
        .catch(() => {
          // Back in line, before the ones that came since, and tried again a moment later.
          const waiting = [...requests, ...(this.pending.get(partner) ?? [])];
          this.pending.set(partner, waiting.slice(-MAX_WAITING));
          this.later();
        });
    });
    this.partnerWrites.set(partner, write);
    void write.then(() => {
      if (this.partnerWrites.get(partner) === write) this.partnerWrites.delete(partner);
    });
    return write;
  }

  /** Drops what waits for partners that are gone (purged): nothing is written for them. */
  forget(partners: Iterable<string>): void {
    for (const partner of partners) this.pending.delete(partner);
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

  private async write(rows: Rows, requests: readonly FinishedRequest[]): Promise<void> {
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
