// Where finished requests wait to be counted: a partner's are written in one transaction a moment
// later (or before a report, or at close), so that a request costs a push onto a list, and a read
// answered from the read cache opens no transaction. Each is written by exactly one committed
// transaction; one that fails puts them back for the next.
import type { SandboxStore } from "../store/store.js";
import { type CountedRequest, countRequests } from "./request-counts.js";

/** How long a request waits at most before it is counted (another process's report sees it then). */
const COUNT_AFTER_MS = 100;

export class RequestCounter {
  private readonly store: SandboxStore;
  private pending = new Map<string, CountedRequest[]>();
  private timer: NodeJS.Timeout | undefined;
  /** The writes under way, so that a flush waits for those before it. */
  private writing: Promise<void> = Promise.resolve();
  /** Closed: nothing is written later (what is counted after waits for no one). */
  private closed = false;

  constructor(store: SandboxStore) {
    this.store = store;
  }

  count(partner: string, request: CountedRequest): void {
    const waiting = this.pending.get(partner);
    if (waiting === undefined) this.pending.set(partner, [request]);
    else waiting.push(request);
    this.later();
  }

  /** Writes what waits COUNT_AFTER_MS from now, unless a write is already set. */
  private later(): void {
    if (this.timer !== undefined || this.closed) return;
    this.timer = setTimeout(() => {
      // What could not be written (a deadlock, the database away) is tried again.
      this.flush().catch(() => this.later());
    }, COUNT_AFTER_MS);
    this.timer.unref();
  }

  /** Writes what waits; resolves once it (and every earlier write) is in the store. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batches = [...this.pending];
    this.pending = new Map();
    const written = Promise.all(
      batches.map(([partner, requests]) =>
        this.store
          .transaction(partner, (tx) => countRequests(tx, requests))
          .catch((error: unknown) => {
            // Back in line, before the ones that came since.
            this.pending.set(partner, [...requests, ...(this.pending.get(partner) ?? [])]);
            throw error;
          }),
      ),
    );
    this.writing = Promise.all([this.writing.catch(() => {}), written]).then(() => undefined);
    return this.writing;
  }

  /** Writes what waits, once; no timer of its outlives it. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }
}
