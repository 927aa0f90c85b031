/**
 * One attempt's abort signal: aborts when the caller's signal does or after `timeoutMs`.
 * Hand-rolled because `AbortSignal.any` costs tens of µs per call on Node 20.
 */
export interface AttemptSignal {
  signal: AbortSignal;
  /** Rejects with the abort reason once the signal aborts; never resolves. */
  aborted: Promise<never>;
  timedOut(): boolean;
  /** Stops the timer and unhooks the caller's signal. */
  dispose(): void;
}

export function attemptSignal(caller: AbortSignal | undefined, timeoutMs: number): AttemptSignal {
  const controller = new AbortController();
  const { signal } = controller;
  let timedOut = false;
  const aborted = new Promise<never>((_, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  // Nobody may be waiting when the attempt aborts; that rejection is not an unhandled one.
  aborted.catch(() => {});
  const onCallerAbort = () => controller.abort(caller?.reason);
  if (caller?.aborted) onCallerAbort();
  else caller?.addEventListener("abort", onCallerAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException("Timed out", "TimeoutError"));
  }, timeoutMs);
  return {
    signal,
    aborted,
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(timer);
      caller?.removeEventListener("abort", onCallerAbort);
    },
  };
}
