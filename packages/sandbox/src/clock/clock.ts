// Sandbox time: real time plus an offset kept in the store, so that it starts at the real time,
// runs with it, and moves only forward when POST /_sandbox/clock/advance moves it. Every time the
// sandbox writes (created_at, updated_at, events, schedules, quotes) comes from here.

/** What a route reads the time from. */
export interface Clock {
  /** Sandbox now. */
  now(): Date;
}

export class SandboxClock implements Clock {
  private offset: number;

  /** @param offsetMs how far sandbox time is ahead of real time, as the store holds it */
  constructor(offsetMs: number) {
    this.offset = offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  nowMs(): number {
    return realNow() + this.offset;
  }

  get offsetMs(): number {
    return this.offset;
  }

  /** Takes the offset the store holds (another process may have moved it); never goes back. */
  observe(offsetMs: number): void {
    if (offsetMs > this.offset) this.offset = offsetMs;
  }

  /** What sandbox now would be with `offsetMs`. */
  atOffset(offsetMs: number): number {
    return realNow() + offsetMs;
  }

  /** The offset that puts sandbox now at `atMs` (or keeps it, when it is past that already). */
  offsetFor(atMs: number): number {
    return Math.max(this.offset, atMs - realNow());
  }
}

/**
 * The real time: the one place the sandbox reads it (for its clocks, and for what ages in real
 * time: idempotency keys, idle partners).
 */
export function realNow(): number {
  return Date.now();
}

/** A monotonic real-time reading in ms, for how long something took (a request's duration). */
export function elapsedNow(): number {
  return performance.now();
}
