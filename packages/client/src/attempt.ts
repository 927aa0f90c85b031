/**
 * One attempt of a call: its abort signal, which fires when the caller's signal does or after
 * `timeoutMs`, and what it sent and got. Built for the call that succeeds at once: one object,
 * one controller, one timer, and no listener unless the caller passed a signal.
 */
export class Attempt {
  readonly #controller = new AbortController();
  readonly signal = this.#controller.signal;
  readonly #caller: AbortSignal | undefined;
  readonly #timer: ReturnType<typeof setTimeout>;
  #reject: ((reason: unknown) => void) | undefined;
  timedOut = false;
  // undici follows a Request's signal through a weak reference: holding the Request here keeps
  // the attempt's timeout and the caller's abort wired to the fetch until the attempt is over.
  declare request: Request | undefined;
  declare response: Response | undefined;

  constructor(caller: AbortSignal | undefined, timeoutMs: number) {
    this.#caller = caller;
    // The attempt is the timer's argument and the caller's listener: no closure per attempt.
    this.#timer = setTimeout(timeOut, timeoutMs, this);
    if (caller?.aborted) this.abort(caller.reason);
    else caller?.addEventListener("abort", this, { once: true });
  }

  /**
   * `work`'s outcome, or the abort reason as soon as the signal aborts: the attempt ends then even
   * if the fetch never hears of the abort.
   */
  settle<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.signal.aborted) reject(this.signal.reason);
      else this.#reject = reject;
      work.then(resolve, reject);
    });
  }

  /** The caller's signal aborted. */
  handleEvent(): void {
    this.abort(this.#caller?.reason);
  }

  abort(reason: unknown): void {
    this.#controller.abort(reason);
    this.#reject?.(reason);
  }

  /** Stops the timer and unhooks the caller's signal. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener("abort", this);
  }
}

function timeOut(attempt: Attempt): void {
  attempt.timedOut = true;
  attempt.abort(new DOMException("Timed out", "TimeoutError"));
}
