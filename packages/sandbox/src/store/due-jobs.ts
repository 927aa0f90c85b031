// The due jobs a SQLite sandbox's scheduler has read ahead, in the order they are due. Read in a
// batch, they stay valid as long as no job is scheduled to come due before the last of them (a
// new job due later runs after them anyway) and none of them is cancelled; otherwise the buffer
// is dropped, or loses the cancelled jobs, and the next read sees the table as it is.
import type { JobKind, NewJob, ScheduledJob } from "./store.js";

export class DueJobs {
  /** Jobs read at a time. */
  static readonly BATCH = 32;

  private jobs: ScheduledJob[] = [];

  fill(jobs: ScheduledJob[]): void {
    this.jobs = jobs;
  }

  /** Whether the next job read ahead is due by `upTo`. */
  has(upTo: number): boolean {
    const [first] = this.jobs;
    return first !== undefined && first.dueAt <= upTo;
  }

  /**
   * The next job read ahead, if it is due by `upTo`, and after a delivery attempt the attempts
   * due in a row after it: `deliveries` jobs at most.
   */
  take(upTo: number, deliveries: number): ScheduledJob[] {
    const taken: ScheduledJob[] = [];
    while (this.has(upTo) && (taken.length === 0 || taken.length < deliveries)) {
      const next = this.jobs[0] as ScheduledJob;
      if (taken.length > 0 && (next.kind !== "deliver" || taken[0]?.kind !== "deliver")) break;
      taken.push(next);
      this.jobs.shift();
    }
    return taken;
  }

  scheduled(job: NewJob): void {
    const last = this.jobs.at(-1);
    if (last !== undefined && job.dueAt < last.dueAt) this.jobs = [];
  }

  cancelled(subject: string, kind: JobKind): void {
    this.jobs = this.jobs.filter((job) => job.subject !== subject || job.kind !== kind);
  }

  clear(): void {
    this.jobs = [];
  }
}
