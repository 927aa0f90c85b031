// The events listen is forwarding, as the sandbox sends its own deliveries: up to a limit at once,
// those of one receiver about one customer one after another, in cursor order. What is done with
// each once it is forwarded (its line, the cursor kept) goes in cursor order, so that the lines
// read as the log does and the cursor kept is one whose events before it were all forwarded.

/** An event taken in: its cursor, and its work's result once done. */
interface Taken<Done> {
  cursor: string;
  result?: { done: Done };
}

export class InFlight<Done> {
  private readonly limit: number;
  private readonly finish: (done: Done, cursor: string) => Promise<void>;
  /** Taken and not yet finished, in cursor order. */
  private readonly taken: Taken<Done>[] = [];
  /** Each key's last work started: the next of that key waits for it. */
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly roomWaiters: (() => void)[] = [];
  private finishing: Promise<void> = Promise.resolve();
  private failure: unknown;
  private readonly failures = new AbortController();
  /** Aborted, with the error as its reason, once an event's work or finishing fails. */
  readonly failed: AbortSignal = this.failures.signal;

  /**
   * @param limit the events taken and not yet finished, at most
   * @param finish what is done with an event's result, in cursor order
   */
  constructor(limit: number, finish: (done: Done, cursor: string) => Promise<void>) {
    this.limit = limit;
    this.finish = finish;
  }

  /**
   * Takes the event once there is room for it; its `work` starts once the work of the last event
   * of the same `key` has ended. Resolves when it is taken, not when it is done; rejects once an
   * earlier one's work or finishing failed (`failed` says so as it happens).
   */
  async take(cursor: string, key: string, work: () => Promise<Done>): Promise<void> {
    while (this.taken.length >= this.limit && this.failure === undefined) {
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    }
    if (this.failure !== undefined) throw this.failure;
    const taken: Taken<Done> = { cursor };
    this.taken.push(taken);
    const before = this.tails.get(key) ?? Promise.resolve();
    const run = before.then(work).then((done) => {
      taken.result = { done };
      this.finishInOrder();
    });
    const tail = run.catch(() => {});
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    run.catch((error: unknown) => this.fail(error));
  }

  /** Resolves once every event taken is finished; rejects with the first failure. */
  async drained(): Promise<void> {
    while (this.taken.length > 0 && this.failure === undefined) {
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    }
    await this.finishing;
    if (this.failure !== undefined) throw this.failure;
  }

  /** Finishes the events at the front whose work is done, one after another. */
  private finishInOrder(): void {
    this.finishing = this.finishing.then(async () => {
      for (;;) {
        const first = this.taken[0];
        if (first?.result === undefined || this.failure !== undefined) break;
        await this.finish(first.result.done, first.cursor).catch((error: unknown) =>
          this.fail(error),
        );
        this.taken.shift();
        this.wake();
      }
    });
  }

  private fail(error: unknown): void {
    if (this.failure === undefined) {
      this.failure = error;
      this.failures.abort(error);
    }
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.roomWaiters.splice(0)) waiter();
  }
}
