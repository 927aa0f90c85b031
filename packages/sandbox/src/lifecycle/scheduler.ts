// Runs the work scheduled on the sandbox clock: as real time passes (a timer, and at once after a
// change queued webhook deliveries), and when POST /_sandbox/clock/advance moves the clock, in
// the order it is due. One run at a time per process; across processes (Postgres) each job is
// taken by one of them (see SandboxStore.runNext).

import type { JobFinish, JobKind, SandboxStore, ScheduledJob } from "../store/store.js";
import type { SandboxClock } from "./clock.js";

/** What a job kind does: its slow part now, then what it commits. */
export type Perform = (job: ScheduledJob) => Promise<JobFinish>;

/**
 * Delivery attempts due in a row that a store may finish in one transaction, as real time runs
 * them (an advance runs each at its own time, one at a time).
 */
const DELIVERIES_AT_ONCE = 16;
/** How often each process looks for work that has come due in real time. */
const POLL_MS = 1_000;
/** How long an advance waits for due work that another process holds (a slow delivery). */
const HELD_WORK_WAIT_MS = 30_000;
const HELD_WORK_POLL_MS = 25;

export class Scheduler {
  private readonly store: SandboxStore;
  private readonly clock: SandboxClock;
  private readonly performers: Record<JobKind, Perform>;
  private readonly timer: NodeJS.Timeout;
  /** The run under way; the next waits for it. */
  private queue: Promise<unknown> = Promise.resolve();
  private kicked = false;
  private closed = false;

  constructor(store: SandboxStore, clock: SandboxClock, performers: Record<JobKind, Perform>) {
    this.store = store;
    this.clock = clock;
    this.performers = performers;
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
    // Work that came due while no process ran (or that an earlier release left) goes now.
    this.kick();
  }

  /** Runs the work due by now, in the background. */
  kick(): void {
    if (this.closed || this.kicked) return;
    this.kicked = true;
    this.exclusive(async () => {
      this.kicked = false;
      await this.syncClock();
      await this.runDue(() => this.clock.nowMs(), false);
    }).catch(() => {
      // The database is gone (stopping, or a lost connection): the work stays scheduled.
    });
  }

  /**
   * Moves the clock to `toMs`, running in order everything due by then (the clock at each job's
   * due time while it runs); resolves to the number of jobs run.
   */
  advance(toMs: number): Promise<number> {
    return this.exclusive(async () => {
      const ran = await this.runDue(() => toMs, true);
      await this.moveClockTo(toMs);
      return ran;
    });
  }

  /**
   * Moves the clock `ms` further ahead of real time, running in order everything due by then:
   * however long that takes, the clock ends exactly `ms` further ahead than it was.
   */
  advanceBy(ms: number): Promise<number> {
    return this.exclusive(async () => {
      const offset = this.clock.offsetMs + ms;
      const ran = await this.runDue(() => this.clock.atOffset(offset), true);
      await this.moveOffset(offset);
      return ran;
    });
  }

  /** Reads the clock's offset from the store, where other processes may have moved it. */
  async syncClock(): Promise<void> {
    if (this.store.shared) {
      this.clock.observe(await this.store.transaction((tx) => tx.clockOffset()));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.queue.catch(() => undefined);
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async runDue(upTo: () => number, advancing: boolean): Promise<number> {
    let ran = 0;
    const deadline = performance.now() + HELD_WORK_WAIT_MS;
    while (!this.closed) {
      const perform = async (job: ScheduledJob) => {
        if (advancing) await this.moveClockTo(job.dueAt);
        return this.performers[job.kind](job);
      };
      const took = await this.store.runNext(upTo(), perform, advancing ? 1 : DELIVERIES_AT_ONCE);
      if (took > 0) {
        ran += took;
        continue;
      }
      // Another process holds due work: an advance answers once it is done too.
      const held = advancing && this.store.shared && performance.now() < deadline;
      if (!held || !(await this.store.transaction((tx) => tx.hasDue(upTo())))) break;
      await new Promise((resolve) => setTimeout(resolve, HELD_WORK_POLL_MS));
    }
    return ran;
  }

  private moveClockTo(atMs: number): Promise<void> {
    return this.moveOffset(this.clock.offsetFor(atMs));
  }

  /** Puts the clock `offset` ahead of real time (or keeps it, when it is further ahead). */
  private async moveOffset(offset: number): Promise<void> {
    const kept = Math.max(this.clock.offsetMs, offset);
    this.clock.observe(await this.store.transaction((tx) => tx.moveClock(kept)));
  }
}
