// Finished requests are written to the store in batches, a partner's in one transaction: a
// request pays for a push onto a list, not for a transaction of its own (a read answered from the
// read cache has none). A batch goes once FLUSH_MS have passed since its first entry, or at
// BATCH_SIZE entries; a read of the log, a reset and closing write the pending ones first.
import type { RequestEntry, SandboxStore } from "../store/store.js";
import { recordRequests } from "./record.js";

/** How long an entry waits at most before it is written (other processes read it then). */
const FLUSH_MS = 100;
const BATCH_SIZE = 500;

export class RequestRecorder {
  private readonly store: SandboxStore;
  private pending = new Map<string, RequestEntry[]>();
  private count = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The writes under way: a flush resolves once every entry recorded before it is written. */
  private writing: Promise<void> = Promise.resolve();

  constructor(store: SandboxStore) {
    this.store = store;
  }

  record(partner: string, entry: RequestEntry): void {
    const list = this.pending.get(partner);
    if (list === undefined) this.pending.set(partner, [entry]);
    else list.push(entry);
    this.count++;
    if (this.count >= BATCH_SIZE) {
      void this.flush();
    } else if (this.timer === undefined) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes every pending entry; resolves once they (and earlier batches) are in the store. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batches = [...this.pending];
    this.pending = new Map();
    this.count = 0;
    const written = Promise.all(
      batches.map(([partner, entries]) =>
        this.store
          .transaction(partner, (tx) => recordRequests(tx, entries))
          // A log that cannot be written (a full store, a database gone while stopping) loses
          // these entries; the requests themselves were answered.
          .catch(() => undefined),
      ),
    );
    this.writing = Promise.all([this.writing, written]).then(() => undefined);
    return this.writing;
  }
}
