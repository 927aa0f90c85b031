/**
 * One attempt's abort signal: aborts when the caller's signal does or after `timeoutMs`.
 * Hand-rolled because `AbortSignal.any` costs tens of µs per call on Node 20.
 */
export interface AttemptSignal {
  signal: AbortSignal;
  timedOut(): boolean;
  /** Stops the timer and unhooks the caller's signal. */
  dispose(): void;
}

export function attemptSignal(caller: AbortSignal | undefined, timeoutMs: number): AttemptSignal {
  const controller = new AbortController();
  let timedOut = false;
  const onCallerAbort = () => controller.abort(caller?.reason);
  if (caller?.aborted) onCallerAbort();
  else caller?.addEventListener("abort", onCallerAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, "TimeoutError"));
  }, timeoutMs);
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(timer);
      caller?.removeEventListener("abort", onCallerAbort);
    },
  };
}
