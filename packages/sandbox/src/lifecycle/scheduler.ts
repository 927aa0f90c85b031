// Runs the work scheduled on each partner's sandbox clock: as real time passes (a timer, and at
// once after a change queued webhook deliveries), and when POST /_sandbox/clock/advance moves a
// partner's clock, in the order it is due. One run at a time per partner and process; across
// processes (Postgres) each job is taken by one of them (see SandboxStore.runNext).

import {
  type Clock,
  nextTurn,
  type PartnerClockRunner,
  realNow,
  type SandboxClock,
} from "../clock/index.js";
import { deliveryOrderKey } from "../events/index.js";
import type {
  JobFinish,
  JobKind,
  SandboxStore,
  ScheduledJob,
  StoreTransaction,
} from "../store/store.js";
import { sendAndRecord } from "./recorded-deliveries.js";

/** The partner whose work runs, and its clock. */
export interface ClockOwner {
  partner: string;
  clock: SandboxClock;
}

/**
 * What a job kind does for its partner, at `clock`'s time: its slow part now, then what it
 * commits.
 */
export type Perform<T extends ClockOwner> = (
  owner: T,
  job: ScheduledJob,
  clock: Clock,
) => Promise<JobFinish>;

/** Timed steps run in one transaction, at most. */
const STEP_BATCH = 256;
/**
 * Steps run between two turns of the event loop. A SQLite transaction's work never waits for I/O,
 * so a batch would otherwise hold the process until it commits: an event stream opened meanwhile
 * (which reads what has committed, on a connection of its own) and the deliveries' answers wait
 * for a turn, not for the whole batch.
 */
const STEPS_PER_TURN = 32;
/** Delivery attempts taken at once, held until each is recorded. */
const DELIVERY_BATCH = 128;
/**
 * Delivery attempts of one batch sent and not yet recorded, at most: all that a process that dies
 * sends again. Those of one webhook about one customer go one after another, in the order they
 * are due (deliveryOrderKey).
 */
export const DELIVERIES_IN_FLIGHT = 16;
/** How often each process looks for work that has come due in real time. */
const POLL_MS = 1_000;
/** How long an advance waits for due work that another process holds (a slow delivery). */
const HELD_WORK_WAIT_MS = 30_000;
const HELD_WORK_POLL_MS = 25;

export class Scheduler<T extends ClockOwner> {
  private readonly store: SandboxStore;
  private readonly ownerOf: (partner: string) => Promise<T>;
  private readonly performers: Readonly<Record<JobKind, Perform<T>>>;
  private readonly timer: NodeJS.Timeout;
  /** Each partner's run under way; its next waits for it. */
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly kicked = new Set<string>();
  private polling = false;
  private closed = false;

  /** @param ownerOf the partner's clock, for a partner whose work came due in real time */
  constructor(
    store: SandboxStore,
    ownerOf: (partner: string) => Promise<T>,
    performers: Readonly<Record<JobKind, Perform<T>>>,
  ) {
    this.store = store;
    this.ownerOf = ownerOf;
    this.performers = performers;
    this.timer = setInterval(() => this.poll(), POLL_MS);
    // Node: not what keeps the process alive (a page's timers have no unref).
    this.timer.unref?.();
    // Work that came due while no process ran (or that an earlier release left) goes now.
    this.poll();
  }

  /** Runs the partner's work due by now, in the background. */
  kick(owner: T): void {
    if (this.closed || this.kicked.has(owner.partner)) return;
    this.kicked.add(owner.partner);
    this.exclusive(owner.partner, async () => {
      this.kicked.delete(owner.partner);
      await this.syncClock(owner);
      await this.runDue(owner, () => owner.clock.nowMs(), false);
    }).catch(() => {
      // The database is gone (stopping, or a lost connection): the work stays scheduled.
    });
  }

  /** The partner's clock, as its control routes move it. */
  runnerOf(owner: T): PartnerClockRunner {
    return {
      advance: (toMs) =>
        this.exclusive(owner.partner, async () => {
          const ran = await this.runDue(owner, () => toMs, true);
          await this.moveOffset(owner, owner.clock.offsetFor(toMs));
          return ran;
        }),
      advanceBy: (ms) =>
        this.exclusive(owner.partner, async () => {
          const offset = owner.clock.offsetMs + ms;
          const ran = await this.runDue(owner, () => owner.clock.atOffset(offset), true);
          await this.moveOffset(owner, offset);
          return ran;
        }),
      syncClock: () => this.syncClock(owner),
    };
  }

  /** Whether it runs: until the sandbox closes. */
  get running(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await Promise.all([...this.queues.values()].map((run) => run.catch(() => undefined)));
  }

  /** Kicks every partner whose work has come due by its clock. */
  private poll(): void {
    if (this.closed || this.polling) return;
    this.polling = true;
    this.store
      .duePartners(realNow())
      .then(async (partners) => {
        for (const partner of partners) this.kick(await this.ownerOf(partner));
      })
      .catch(() => {
        // As in kick: the work stays scheduled.
      })
      .finally(() => {
        this.polling = false;
      });
  }

  private async syncClock(owner: T): Promise<void> {
    if (this.store.shared) {
      owner.clock.observe(await this.store.transaction(owner.partner, (tx) => tx.clockOffset()));
    }
  }

  private exclusive<R>(partner: string, work: () => Promise<R>): Promise<R> {
    const run = (this.queues.get(partner) ?? Promise.resolve()).then(work);
    const tail = run.catch(() => undefined);
    this.queues.set(partner, tail);
    void tail.then(() => {
      if (this.queues.get(partner) === tail) this.queues.delete(partner);
    });
    return run;
  }

  /**
   * Runs the partner's work due by `upTo`: the timed steps in batches, each step at its own due
   * time, then the deliveries due by the last step run, in batches, each sent at once with the
   * others of the batch it need not wait for. Resolves to the number of jobs run.
   */
  private async runDue(owner: T, upTo: () => number, advancing: boolean): Promise<number> {
    let ran = 0;
    const deadline = performance.now() + HELD_WORK_WAIT_MS;
    while (!this.closed) {
      const until = upTo();
      const steps = await this.runSteps(owner, until, advancing);
      let sent = 0;
      for (;;) {
        const took = await this.runDeliveries(owner, steps.through, advancing);
        sent += took;
        // Outside an advance, what a batch schedules (a retry) is due later: a batch short of
        // full took all there was. (Each claim also ends SQLite's open group of commits.)
        if (took === 0 || this.closed || (!advancing && took < DELIVERY_BATCH)) break;
      }
      ran += steps.ran + sent;
      // Steps may have made work due at once; deliveries outside an advance make none.
      if (steps.ran > 0 || (advancing && sent > 0)) continue;
      // Another process holds due work: an advance answers once it is done too.
      const held = advancing && this.store.shared && performance.now() < deadline;
      if (!held) break;
      const due = await this.store.transaction(owner.partner, (tx) => tx.hasDue(until));
      if (!due) break;
      await new Promise((resolve) => setTimeout(resolve, HELD_WORK_POLL_MS));
    }
    return ran;
  }

  /**
   * One batch of the steps due by `upTo`, in one transaction, each at its own time. A step that
   * schedules a step due before the next one of the batch ends it (the next batch reads both in
   * order). Resolves to the steps run and the time up to which every step has run.
   */
  private async runSteps(
    owner: T,
    upTo: number,
    advancing: boolean,
  ): Promise<{ ran: number; through: number }> {
    let through = upTo;
    const ran = await this.store.runBatch(owner.partner, "step", upTo, STEP_BATCH, async (jobs) => {
      return async (tx) => {
        let done = 0;
        for (const job of jobs) {
          const next = jobs[done + 1];
          let cut = false;
          const watched: StoreTransaction = {
            ...tx,
            async schedule(scheduled) {
              if (next && scheduled.kind === "step" && scheduled.dueAt < next.dueAt) cut = true;
              await tx.schedule(scheduled);
            },
          };
          const finish = await this.performers.step(
            owner,
            job,
            this.clockFor(owner, job, advancing),
          );
          await finish(watched);
          done++;
          if (cut) break;
          if (done % STEPS_PER_TURN === 0) await nextTurn();
        }
        // Steps due later than the last one run may remain: deliveries go up to it only.
        const last = jobs[done - 1];
        if (last !== undefined && (done < jobs.length || jobs.length === STEP_BATCH)) {
          through = last.dueAt;
        }
        return done;
      };
    });
    return { ran, through };
  }

  /**
   * One batch of the deliveries due by `upTo`: sent at once (within their order), each recorded
   * soon after it ends (recorded-deliveries.ts). Resolves to the number recorded.
   */
  private async runDeliveries(owner: T, upTo: number, advancing: boolean): Promise<number> {
    const held = await this.store.holdJobs(owner.partner, "deliver", upTo, DELIVERY_BATCH);
    if (held.jobs.length === 0) return 0;
    try {
      return await sendAndRecord(held, deliveryOrderKey, DELIVERIES_IN_FLIGHT, (job) =>
        this.performers.deliver(owner, job, this.clockFor(owner, job, advancing)),
      );
    } finally {
      await held.release();
    }
  }

  /**
   * The time a job runs at: an advance runs it at the time it is due (one overdue already, now);
   * the stored clock moves once, at the end, so that a process that dies on the way leaves the
   * rest scheduled for the next advance.
   */
  private clockFor(owner: T, job: ScheduledJob, advancing: boolean): Clock {
    return advancing ? atTime(owner.clock, job.dueAt) : owner.clock;
  }

  /** Puts the partner's clock `offset` ahead of real time (or keeps it, when it is further ahead). */
  private async moveOffset(owner: T, offset: number): Promise<void> {
    const kept = Math.max(owner.clock.offsetMs, offset);
    owner.clock.observe(await this.store.transaction(owner.partner, (tx) => tx.moveClock(kept)));
  }
}

/** A clock that stands at `atMs`, or at `clock`'s now when that is later. */
function atTime(clock: SandboxClock, atMs: number): Clock {
  const at = Math.max(atMs, clock.nowMs());
  return { now: () => new Date(at) };
}
