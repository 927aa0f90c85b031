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
  const group: Group = {
    db,
    sql: statementsOf(db),
    waiting: [],
    done: [],
    open: false,
    pumping: false,
  };
  const enqueue = <T>(work: () => Promise<T>, grouped: boolean) =>
    new Promise<T>((resolve, reject) => {
      group.waiting.push({ work, grouped, resolve: resolve as (value: unknown) => void, reject });
      if (!group.pumping) void pump(group);
    });
  return {
    transaction: (work) => enqueue(work, true),
    alone: (work) => enqueue(work, false),
  };
}

/** The queue and the open group of one connection. */
interface Group {
  db: Connection;
  sql: Statements;
  waiting: Job[];
  /** The jobs of the open group whose work is done, with their results. */
  done: { job: Job; result: unknown }[];
  open: boolean;
  pumping: boolean;
}

type Statements = ReturnType<typeof statementsOf>;

function statementsOf(db: Connection) {
  const statement = (sql: string) => {
    const prepared = db.prepare(sql);
    // Named, so that a CPU profile tells SQLite's time from the queue's.
    const sqlStatement = () => prepared.run();
    return sqlStatement;
  };
  return {
    begin: statement("BEGIN"),
    commitAll: statement("COMMIT"),
    rollbackAll: statement("ROLLBACK"),
    savepoint: statement("SAVEPOINT request"),
    release: statement("RELEASE request"),
    rollbackRequest: statement("ROLLBACK TO request"),
  };
}

/** Resolves (or, given an error, rejects) every member of the open group, and closes it. */
function settle(group: Group, error?: unknown): void {
  const members = group.done;
  group.done = [];
  group.open = false;
  for (const { job, result } of members) {
    if (error === undefined) job.resolve(result);
    else job.reject(error);
  }
}

function commit(group: Group): void {
  if (!group.open) return;
  try {
    group.sql.commitAll();
  } catch (error) {
    abandon(group, error);
    return;
  }
  settle(group);
}

/** Undoes a failed request's changes; where that fails, the whole group's. */
function undoRequest(group: Group, error: unknown): void {
  try {
    // Not in a transaction: SQLite rolled it all back itself (a full disk, an I/O error).
    if (group.db.isTransaction) {
      group.sql.rollbackRequest();
      group.sql.release();
      return;
    }
  } catch {}
  abandon(group, error);
}

/** Fails every member of the open group and rolls its transaction back. */
function abandon(group: Group, error: unknown): void {
  settle(group, error);
  // The members have their error; a connection that cannot roll back has nothing to add.
  try {
    if (group.db.isTransaction) group.sql.rollbackAll();
  } catch {}
}

async function runGrouped(group: Group, job: Job): Promise<void> {
  if (!group.open) {
    group.sql.begin();
    group.open = true;
  }
  group.sql.savepoint();
  try {
    const result = await job.work();
    group.sql.release();
    group.done.push({ job, result });
  } catch (error) {
    job.reject(error);
    undoRequest(group, error);
  }
  if (group.done.length >= GROUP_LIMIT) commit(group);
}

async function runAlone(group: Group, job: Job): Promise<void> {
  commit(group);
  try {
    job.resolve(await job.work());
  } catch (error) {
    job.reject(error);
  }
}

async function pump(group: Group): Promise<void> {
  group.pumping = true;
  for (;;) {
    const job = group.waiting.shift();
    if (job !== undefined) {
      // A failing BEGIN or SAVEPOINT (the database closed) fails the job, not the queue.
      await (job.grouped ? runGrouped(group, job) : runAlone(group, job)).catch(job.reject);
    } else if (group.open) {
      // Requests that arrive in this turn of the event loop join the group before it commits.
      await new Promise((resolve) => setImmediate(resolve));
      if (group.waiting.length === 0) commit(group);
    } else {
      // In the same turn as the check above: a job queued after it starts a new pump.
      group.pumping = false;
      return;
    }
  }
}
