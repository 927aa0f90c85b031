// Transactions on one SQLite connection, one after another, committed in groups. Each runs in a
// savepoint of a transaction that commits once no other is waiting, and none resolves before
// that commit: a request's changes still commit together or not at all, and no answer goes out
// before its changes are committed (in WAL mode, written to the log). A commit costs about the
// same for one request as for many (the log write, the full-text index's new segment), so the
// requests that arrive together share one.

/** The part of node:sqlite's DatabaseSync this needs. */
export interface Connection {
  prepare(sql: string): { run(): unknown };
  readonly isTransaction: boolean;
}

/** At most this many requests share a commit, so that none waits long for it. */
const GROUP_LIMIT = 64;

interface Job {
  work: () => Promise<unknown>;
  /** False for work outside any transaction, which runs once the open group has committed. */
  grouped: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export interface GroupCommit {
  /** Runs `work` in a savepoint of the shared transaction; resolves once that has committed. */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** Runs `work` between transactions, after everything queued before it has committed. */
  alone<T>(work: () => Promise<T>): Promise<T>;
}

export function groupCommit(db: Connection): GroupCommit {
  const statement = (sql: string) => {
    const prepared = db.prepare(sql);
    // Named, so that a CPU profile tells SQLite's time from the queue's.
    const sqlStatement = () => prepared.run();
    return sqlStatement;
  };
  const begin = statement("BEGIN");
  const commitAll = statement("COMMIT");
  const rollbackAll = statement("ROLLBACK");
  const savepoint = statement("SAVEPOINT request");
  const release = statement("RELEASE request");
  const rollbackRequest = statement("ROLLBACK TO request");

  const waiting: Job[] = [];
  /** The jobs of the open group whose work is done, with their results. */
  let done: { job: Job; result: unknown }[] = [];
  let open = false;
  let pumping = false;

  const settle = (error?: unknown) => {
    const members = done;
    done = [];
    open = false;
    for (const { job, result } of members) {
      if (error === undefined) job.resolve(result);
      else job.reject(error);
    }
  };

  const commit = () => {
    if (!open) return;
    try {
      commitAll();
    } catch (error) {
      abandon(error);
      return;
    }
    settle();
  };

  /** Undoes a failed request's changes; where that fails, the whole group's. */
  const undoRequest = (error: unknown) => {
    try {
      // Not in a transaction: SQLite rolled it all back itself (a full disk, an I/O error).
      if (db.isTransaction) {
        rollbackRequest();
        release();
        return;
      }
    } catch {}
    abandon(error);
  };

  /** Fails every member of the open group and rolls its transaction back. */
  const abandon = (error: unknown) => {
    settle(error);
    // The members have their error; a connection that cannot roll back has nothing to add.
    try {
      if (db.isTransaction) rollbackAll();
    } catch {}
  };

  const runGrouped = async (job: Job) => {
    if (!open) {
      begin();
      open = true;
    }
    savepoint();
    try {
      const result = await job.work();
      release();
      done.push({ job, result });
    } catch (error) {
      job.reject(error);
      undoRequest(error);
    }
    if (done.length >= GROUP_LIMIT) commit();
  };

  const runAlone = async (job: Job) => {
    commit();
    try {
      job.resolve(await job.work());
    } catch (error) {
      job.reject(error);
    }
  };

  const pump = async () => {
    pumping = true;
    for (;;) {
      const job = waiting.shift();
      if (job !== undefined) {
        // A failing BEGIN or SAVEPOINT (the database closed) fails the job, not the queue.
        await (job.grouped ? runGrouped(job) : runAlone(job)).catch(job.reject);
      } else if (open) {
        // Requests that arrive in this turn of the event loop join the group before it commits.
        await new Promise((resolve) => setImmediate(resolve));
        if (waiting.length === 0) commit();
      } else {
        // In the same turn as the check above: a job queued after it starts a new pump.
        pumping = false;
        return;
      }
    }
  };

  const enqueue = <T>(work: () => Promise<T>, grouped: boolean) =>
    new Promise<T>((resolve, reject) => {
      waiting.push({ work, grouped, resolve: resolve as (value: unknown) => void, reject });
      if (!pumping) void pump();
    });

  return {
    transaction: (work) => enqueue(work, true),
    alone: (work) => enqueue(work, false),
  };
}
